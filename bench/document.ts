/**
 * Document-engine cost per image, against the goals of issue 17: an autocapture frame (1280×720) ≤ 150 ms
 * median on one core, a validation page ≤ 1 s. Images are rendered OCR-B pages (test/helpers/
 * document-render.ts) photographed on a desk: frames with a TD3 or TD1 page filling most of the frame,
 * upright, turned a few degrees or upside down; pages as a phone photo of 1800×1350 with the visual zone printed
 * (names and dates under their labels). Each is read with `readDocument` in this process, one at a time after a
 * warm-up, and a validation page's visual zone too (`readVisualZone`, what validation adds to the MRZ read), with
 * the engine's own per-stage clock:
 * wall time, and the process's CPU time (every thread: onnxruntime's and sharp's too), which is the cost
 * on one core and changes far less than wall time when other work shares the machine. Run alone:
 * `tsx bench/document.ts [--rounds N] [--paddle-only]` (`--paddle-only`: without our OCR-B recogniser, for
 * comparison); `npm run bench` runs it too. Writes reports/bench-document.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadOpenCv } from '../src/engines/document/opencv-runtime.js';
import { OcrbRecognizer } from '../src/engines/document/ocrb-recognizer.js';
import { PaddleTextRecognizer } from '../src/engines/document/paddle-text-recognizer.js';
import { readDocument, type DocumentStageTimes } from '../src/engines/document/read-document.js';
import { readVisualZone } from '../src/engines/document/read-visual-zone.js';
import { VisualZoneText } from '../src/engines/document/visual-zone-text.js';
import { median } from '../src/lib/median.js';
import {
  photographPage,
  printedFields,
  type PhotoOptions,
  type RenderedLayout,
} from '../test/helpers/document-render.js';
import { SPECIMEN_TRUTH } from '../test/helpers/mrz-composer.js';
import { machineDescription } from './machine.js';

const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

interface BenchImage {
  readonly name: string;
  readonly layout: RenderedLayout;
  readonly mrz: readonly string[];
  readonly options: PhotoOptions;
}

const FRAME = { canvasWidth: 1280, canvasHeight: 720, quality: 85 } as const;
const PAGE = { canvasWidth: 1800, canvasHeight: 1350, quality: 90, printed: printedFields(SPECIMEN_TRUTH) } as const;

/** Autocapture frames: the page across about 60–70 % of the frame width, as the capture region asks. */
const FRAMES: readonly BenchImage[] = [
  { name: 'TD3 upright', layout: 'TD3', mrz: TD3, options: { ...FRAME, scale: 6.5 } },
  { name: 'TD3 turned 4°', layout: 'TD3', mrz: TD3, options: { ...FRAME, scale: 6.5, rotate: 4 } },
  { name: 'TD3 upside down', layout: 'TD3', mrz: TD3, options: { ...FRAME, scale: 6.5, rotate: 180 } },
  { name: 'TD1 upright', layout: 'TD1', mrz: TD1, options: { ...FRAME, scale: 9 } },
  { name: 'TD1 turned -3°', layout: 'TD1', mrz: TD1, options: { ...FRAME, scale: 9, rotate: -3 } },
  { name: 'no MRZ', layout: 'TD3', mrz: TD3, options: { ...FRAME, scale: 6.5, withoutMrz: true } },
];

/** Validation pages: a phone photo of the page, downscaled by the client to 1800 px. */
const PAGES: readonly BenchImage[] = [
  { name: 'TD3 page', layout: 'TD3', mrz: TD3, options: { ...PAGE, scale: 11, rotate: 2 } },
  { name: 'TD1 card', layout: 'TD1', mrz: TD1, options: { ...PAGE, scale: 15, rotate: -2 } },
  { name: 'TD3 page upside down', layout: 'TD3', mrz: TD3, options: { ...PAGE, scale: 11, rotate: 181 } },
];

export interface DocumentBenchRow {
  readonly kind: 'autocapture frame' | 'validation page';
  readonly goalMs: number;
  readonly images: number;
  readonly reads: number;
  /** Medians over every read of every image. */
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly cpuP90Ms: number;
  /** Median CPU time per stage; `visualZoneMs`, the visual-zone read (validation pages only, else 0). */
  readonly stagesCpuMs: Omit<DocumentStageTimes, 'totalMs'> & { readonly visualZoneMs: number };
  /** Per image: median CPU and wall, and whether its MRZ read as rendered. */
  readonly perImage: readonly { name: string; cpuMs: number; wallMs: number; mrzRead: boolean }[];
}

export interface DocumentBenchResult {
  readonly rows: readonly DocumentBenchRow[];
  readonly rounds: number;
  readonly machine: string;
  readonly loadAverage: readonly [number, number];
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** `ocrb`: our OCR-B recogniser first, as the server reads (false: PaddleOCR alone, for comparison). */
export async function benchDocument(rounds = 5, ocrb = true): Promise<DocumentBenchResult> {
  const loadBefore = loadavg()[0] ?? NaN;
  const models = {
    cv: await loadOpenCv(),
    recognizer: await PaddleTextRecognizer.load(),
    ...(ocrb ? { ocrb: OcrbRecognizer.load() } : {}),
  };
  const visualZone = await VisualZoneText.load();
  const rows: DocumentBenchRow[] = [];
  for (const [kind, goalMs, images] of [
    ['autocapture frame', 150, FRAMES],
    ['validation page', 1000, PAGES],
  ] as const) {
    const all: (DocumentStageTimes & { visualZoneMs: number })[] = [];
    const walls: number[] = [];
    const perImage = [];
    for (const image of images) {
      const bytes = await photographPage(image.layout, image.mrz, image.options);
      // Validation reads the visual zone as well: its CPU counts in the page's total.
      const readPage = async () => {
        const reading = await readDocument(models, bytes);
        if (kind !== 'validation page') return { reading, cpuMs: reading.timings.cpu.totalMs, visualZoneMs: 0 };
        const page = reading.page ? { jpeg: reading.page.jpeg, quad: reading.page.quad } : null;
        const viz = await readVisualZone(visualZone, { frame: bytes, page, referenceDate: Date.now() });
        return { reading, cpuMs: reading.timings.cpu.totalMs + viz.cpuMs, visualZoneMs: viz.cpuMs };
      };
      await readPage(); // warm-up: first-run allocations of OpenCV and onnxruntime
      const cpu: number[] = [];
      const wall: number[] = [];
      let mrzRead = false;
      for (let round = 0; round < rounds; round++) {
        const { reading, cpuMs, visualZoneMs } = await readPage();
        all.push({ ...reading.timings.cpu, totalMs: cpuMs, visualZoneMs });
        walls.push(reading.timings.totalMs);
        cpu.push(cpuMs);
        wall.push(reading.timings.totalMs);
        mrzRead = reading.mrz !== null;
      }
      perImage.push({ name: image.name, cpuMs: median(cpu, 'mean'), wallMs: median(wall, 'mean'), mrzRead });
    }
    const stage = (key: keyof DocumentStageTimes | 'visualZoneMs') =>
      median(
        all.map((t) => t[key]),
        'mean',
      );
    rows.push({
      kind,
      goalMs,
      images: images.length,
      reads: all.length,
      wallMs: median(walls, 'mean'),
      cpuMs: stage('totalMs'),
      cpuP90Ms: quantile(
        all.map((t) => t.totalMs),
        0.9,
      ),
      stagesCpuMs: {
        decodeMs: stage('decodeMs'),
        locateMs: stage('locateMs'),
        ocrMs: stage('ocrMs'),
        pageMs: stage('pageMs'),
        qualityMs: stage('qualityMs'),
        visualZoneMs: stage('visualZoneMs'),
      },
      perImage,
    });
  }
  const machine = machineDescription();
  return { rows, rounds, machine, loadAverage: [loadBefore, loadavg()[0] ?? NaN] };
}

export function documentBenchTable(result: DocumentBenchResult): string {
  const ms = (v: number) => v.toFixed(0);
  const [before, after] = result.loadAverage;
  return [
    `Document engine per image, one thread, ${result.rounds} reads per image after a warm-up (${result.machine}; ` +
      `load average ${before.toFixed(1)} → ${after.toFixed(1)}: wall time carries the other work, CPU time far less)`,
    '',
    '| image | goal ms | median CPU ms | p90 CPU ms | median wall ms (MRZ read) | decode | locate | OCR | page | quality | visual zone | CPU within goal |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.kind} | ${r.goalMs} | ${ms(r.cpuMs)} | ${ms(r.cpuP90Ms)} | ${ms(r.wallMs)} | ${ms(r.stagesCpuMs.decodeMs)} | ` +
        `${ms(r.stagesCpuMs.locateMs)} | ${ms(r.stagesCpuMs.ocrMs)} | ${ms(r.stagesCpuMs.pageMs)} | ` +
        `${ms(r.stagesCpuMs.qualityMs)} | ${ms(r.stagesCpuMs.visualZoneMs)} | ${r.cpuMs <= r.goalMs ? 'yes' : 'no'} |`,
    ),
    '',
    'Stages are median CPU ms. Per image (median CPU / wall ms, MRZ read):',
    ...result.rows.map(
      (r) =>
        `- ${r.kind}: ` +
        r.perImage.map((i) => `${i.name} ${ms(i.cpuMs)} / ${ms(i.wallMs)}${i.mrzRead ? '' : ' (no MRZ)'}`).join('; '),
    ),
    '',
  ].join('\n');
}

export function writeDocumentBenchReport(result: DocumentBenchResult, command: string): void {
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-document.md',
    `# Document engine benchmark\n\nCommand: \`${command}\`\n\n${documentBenchTable(result)}`,
  );
  writeFileSync(
    'reports/bench-document.json',
    `${JSON.stringify({ date: new Date().toISOString(), command, ...result }, null, 2)}\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, 'paddle-only': { type: 'boolean', default: false } },
  });
  const result = await benchDocument(Number(values.rounds), !values['paddle-only']);
  process.stdout.write(documentBenchTable(result));
  writeDocumentBenchReport(
    result,
    `tsx bench/document.ts --rounds ${values.rounds}${values['paddle-only'] ? ' --paddle-only' : ''}`,
  );
}
