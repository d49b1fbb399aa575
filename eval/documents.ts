/**
 * `npm run eval -- documents <dir> [--rendered N] [--ocr paddle|ocrb-first|ocrb] [--sequences N]`
 *
 * The document engine on labelled images: `<dir>/truth.json` (file, format, mrz lines or null for a
 * negative, checkDigitsValid) read with `readDocument` (read-document.ts) in this process, one image at a
 * time, and parsed with repairMrz. Per image and in total: band read (an MRZ found where there is one),
 * raw lines exact, lines exact after repair, every line exact after repair, fully valid after repair,
 * false valid (a valid parse that differs from the truth), negatives with an MRZ claimed, ms per image.
 * A document whose printed check digits are wrong counts as right when it parses invalid with its lines
 * exact. With `--rendered N`, the first N strings of `<dir>/mrz_test_strings.json` are also rendered in
 * OCR-B on a page (test/helpers/document-render.ts; turned 3°, blurred 0.5 px, JPEG 85) and read the same
 * way. Writes reports/document-eval.{md,json}. Timings share the machine with whatever else runs: ranges.
 * Then (`--visual-zone off` skips) the visual-zone reading on the same photos and rendered strings
 * (eval/document-visual-zone.ts, reports/document-visual-zone-eval.{md,json}).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeAutocaptureSequencesReport } from './document-autocapture-sequences.js';
import { writeVisualZoneReport } from './document-visual-zone.js';
import { MrzInputError } from '../src/engines/document/mrz/mrz-input-error.js';
import { repairMrz } from '../src/engines/document/mrz/repair-mrz.js';
import { loadOpenCv } from '../src/engines/document/opencv-runtime.js';
import { OcrbRecognizer } from '../src/engines/document/ocrb-recognizer.js';
import { PaddleTextRecognizer } from '../src/engines/document/paddle-text-recognizer.js';
import { QUALITY_CHECKS } from '../src/engines/document/quality/page-quality.js';
import { readDocument, type DocumentModels } from '../src/engines/document/read-document.js';
import { median } from '../src/lib/median.js';
import { photographPage, type RenderedLayout } from '../test/helpers/document-render.js';

interface TruthEntry {
  readonly file: string;
  readonly format: string;
  readonly mrz: readonly string[] | null;
  readonly checkDigitsValid?: boolean;
}

interface ImageResult {
  readonly name: string;
  readonly format: string;
  readonly negative: boolean;
  readonly printedValid: boolean;
  readonly bandRead: boolean;
  readonly rawExactLines: number;
  readonly repairedExactLines: number;
  readonly lines: number;
  readonly allExact: boolean;
  readonly valid: boolean;
  readonly falseValid: boolean;
  /** The outcome wanted: every line exact and valid (invalid for a document printed with wrong digits). */
  readonly correct: boolean;
  readonly ms: number;
  readonly quality: string;
}

function isTruthEntry(value: unknown): value is TruthEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.file === 'string' &&
    typeof v.format === 'string' &&
    (v.mrz === null || (Array.isArray(v.mrz) && v.mrz.every((l) => typeof l === 'string')))
  );
}

interface RenderedString {
  readonly format: string;
  readonly lines: readonly string[];
  readonly checkDigitsValid: boolean;
}

function isRenderedString(value: unknown): value is RenderedString {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.format === 'string' &&
    typeof v.checkDigitsValid === 'boolean' &&
    Array.isArray(v.lines) &&
    v.lines.every((l) => typeof l === 'string')
  );
}

const RENDER_LAYOUT: Readonly<Record<string, RenderedLayout>> = {
  TD1: 'TD1',
  TD2: 'TD2',
  TD3: 'TD3',
  'MRV-A': 'TD3',
  'MRV-B': 'TD2',
};

async function evaluate(
  models: DocumentModels,
  name: string,
  format: string,
  bytes: Uint8Array,
  truth: readonly string[] | null,
  printedValid: boolean,
): Promise<ImageResult> {
  const started = performance.now();
  const reading = await readDocument(models, bytes);
  const ms = performance.now() - started;
  const raw = reading.mrz?.lines ?? [];
  let repaired: readonly string[] = [];
  let valid = false;
  if (reading.mrz) {
    try {
      const parsed = repairMrz(raw, { evidence: reading.mrz.evidence });
      repaired = parsed.lines;
      valid = parsed.valid;
    } catch (error) {
      if (!(error instanceof MrzInputError)) throw error;
    }
  }
  const expected = truth ?? [];
  const rawExactLines = expected.filter((l, i) => raw[i] === l).length;
  const repairedExactLines = expected.filter((l, i) => repaired[i] === l).length;
  const allExact = truth !== null && repairedExactLines === expected.length && repaired.length === expected.length;
  const quality = QUALITY_CHECKS.map((check) => [check, reading.quality[check].result] as const)
    .map(([check, result]) => `${check} ${result === 'NOT_PERFORMED' ? 'n/p' : result}`)
    .join(', ');
  return {
    name,
    format,
    negative: truth === null,
    printedValid,
    bandRead: reading.mrz !== null,
    rawExactLines,
    repairedExactLines,
    lines: expected.length,
    allExact,
    valid,
    falseValid: valid && !allExact,
    correct: truth === null ? reading.mrz === null : allExact && valid === printedValid,
    ms,
    quality,
  };
}

/** `--ocr`: PaddleOCR alone, our OCR-B recogniser first and PaddleOCR when it fails (the default), or ours alone. */
const OCR_MODES: readonly (string | undefined)[] = ['paddle', 'ocrb-first', 'ocrb'];

function summary(results: readonly ImageResult[]) {
  const positives = results.filter((r) => !r.negative);
  const lines = positives.reduce((a, r) => a + r.lines, 0);
  const share = (n: number, of: number) => (of > 0 ? Math.round((1000 * n) / of) / 10 : 0);
  const ms = results.map((r) => r.ms);
  return {
    images: results.length,
    positives: positives.length,
    negatives: results.length - positives.length,
    bandReadPercent: share(positives.filter((r) => r.bandRead).length, positives.length),
    rawLinesExactPercent: share(
      positives.reduce((a, r) => a + r.rawExactLines, 0),
      lines,
    ),
    repairedLinesExactPercent: share(
      positives.reduce((a, r) => a + r.repairedExactLines, 0),
      lines,
    ),
    documentsAllExactPercent: share(positives.filter((r) => r.allExact).length, positives.length),
    fullyValidPercent: share(
      positives.filter((r) => r.valid && r.printedValid).length,
      positives.filter((r) => r.printedValid).length,
    ),
    printedInvalidRepairedValid: positives.filter((r) => r.valid && !r.printedValid).length,
    correctPercent: share(positives.filter((r) => r.correct).length, positives.length),
    falseValid: positives.filter((r) => r.falseValid).length,
    negativesClaimed: results.filter((r) => r.negative && r.bandRead).length,
    msMedian: Math.round(median(ms, 'mean')),
    msMin: Math.round(Math.min(...ms)),
    msMax: Math.round(Math.max(...ms)),
  };
}

function table(title: string, results: readonly ImageResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.format} | ${r.bandRead ? 'yes' : 'no'} | ${r.negative ? '-' : `${r.rawExactLines}/${r.lines}`} | ` +
      `${r.negative ? '-' : `${r.repairedExactLines}/${r.lines}`} | ${r.valid ? 'yes' : 'no'}${r.printedValid ? '' : ' (printed invalid)'} | ` +
      `${r.correct ? 'yes' : 'no'} | ${Math.round(r.ms)} | ${r.quality} |`,
  );
  return [
    `### ${title}`,
    '',
    '| image | format | MRZ read | raw lines exact | repaired lines exact | valid | right | ms | quality |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * Runs the documents evaluation (see the file comment).
 *
 * @example
 * await evalDocuments(['../shared/data/documents/dev', '--rendered', '44']);
 */
export async function evalDocuments(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      rendered: { type: 'string', default: '0' },
      ocr: { type: 'string', default: 'ocrb-first' },
      // Autocapture feedback on generated frame sequences (eval/document-autocapture-sequences.ts); 0 skips.
      sequences: { type: 'string', default: '3' },
      // The visual-zone reading (eval/document-visual-zone.ts); 'off' skips.
      'visual-zone': { type: 'string', default: 'on' },
    },
  });
  if (!OCR_MODES.includes(values.ocr)) throw new Error(`--ocr must be one of ${OCR_MODES.join(', ')}`);
  const dir = positionals[0];
  if (!dir)
    throw new Error(
      'usage: npm run eval -- documents <dir> [--rendered N] [--ocr paddle|ocrb-first|ocrb] [--sequences N]',
    );
  const truthFile: unknown = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8'));
  if (!Array.isArray(truthFile) || !truthFile.every(isTruthEntry)) throw new Error('truth.json: unexpected shape');
  const loadStarted = performance.now();
  const models: DocumentModels = {
    cv: await loadOpenCv(),
    recognizer: await PaddleTextRecognizer.load(),
    ...(values.ocr === 'paddle' ? {} : { ocrb: OcrbRecognizer.load(), ocrbOnly: values.ocr === 'ocrb' }),
  };
  const loadMs = performance.now() - loadStarted;

  const photos: ImageResult[] = [];
  for (const entry of truthFile) {
    const result = await evaluate(
      models,
      entry.file,
      entry.format,
      readFileSync(join(dir, entry.file)),
      entry.mrz,
      entry.checkDigitsValid !== false,
    );
    photos.push(result);
    console.log(
      `${entry.file}: read ${result.bandRead} repaired exact ${result.repairedExactLines}/${result.lines} valid ${result.valid} ${Math.round(result.ms)} ms`,
    );
  }

  const rendered: ImageResult[] = [];
  const count = Number(values.rendered);
  if (count > 0) {
    const strings: unknown = JSON.parse(readFileSync(join(dir, 'mrz_test_strings.json'), 'utf8'));
    if (!Array.isArray(strings) || !strings.every(isRenderedString))
      throw new Error('mrz_test_strings.json: unexpected shape');
    for (const [i, s] of strings.slice(0, count).entries()) {
      const layout = RENDER_LAYOUT[s.format];
      if (!layout) continue;
      const jpeg = await photographPage(layout, s.lines, { rotate: 3, blur: 0.5, quality: 85 });
      rendered.push(await evaluate(models, `string ${i + 1}`, s.format, jpeg, s.lines, s.checkDigitsValid));
    }
  }

  const report = {
    generatedBy: `npm run eval -- documents ${argv.join(' ')}`,
    ocr: values.ocr,
    modelLoadMs: Math.round(loadMs),
    photos: { summary: summary(photos), images: photos },
    rendered: rendered.length > 0 ? { summary: summary(rendered), images: rendered } : null,
  };
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/document-eval.json', `${JSON.stringify(report, null, 2)}\n`);
  const summaryLines = (s: ReturnType<typeof summary>) =>
    [
      `- images ${s.images} (${s.positives} with an MRZ, ${s.negatives} without)`,
      `- MRZ read (band found and read as an MRZ): ${s.bandReadPercent} %`,
      `- lines exact, raw OCR: ${s.rawLinesExactPercent} %; after repair: ${s.repairedLinesExactPercent} %`,
      `- documents with every line exact after repair: ${s.documentsAllExactPercent} %`,
      `- fully valid after repair (of documents printed valid): ${s.fullyValidPercent} %`,
      `- right outcome (all exact and valid, or invalid where printed invalid): ${s.correctPercent} %`,
      `- false valid (a valid parse whose lines differ from the truth): ${s.falseValid}, of which documents printed with`,
      `  wrong check digits that came out valid: ${s.printedInvalidRepairedValid}; negatives with an MRZ claimed: ${s.negativesClaimed}`,
      `- ms per image: median ${s.msMedian} (${s.msMin}–${s.msMax}), one thread, shared machine`,
    ].join('\n');
  const md = [
    '# Document engine evaluation',
    '',
    `\`${report.generatedBy}\`; OCR ${report.ocr}; models loaded in ${report.modelLoadMs} ms.`,
    '',
    '## Photos',
    '',
    summaryLines(report.photos.summary),
    '',
    table('Per image', photos),
    ...(report.rendered
      ? [
          '',
          '## MRZ strings rendered in OCR-B (turned 3°, blur 0.5 px, JPEG 85)',
          '',
          summaryLines(report.rendered.summary),
          '',
          table('Per string', rendered),
        ]
      : []),
    '',
  ].join('\n');
  writeFileSync('reports/document-eval.md', md);
  console.log(md);
  if (values['visual-zone'] !== 'off') {
    const withMrz = truthFile.flatMap((e) =>
      e.mrz === null ? [] : [{ name: e.file, bytes: readFileSync(join(dir, e.file)), truth: e.mrz }],
    );
    console.log(await writeVisualZoneReport(models, dir, withMrz, count, report.generatedBy));
  }
  const sequences = Number(values.sequences);
  if (sequences > 0) console.log(await writeAutocaptureSequencesReport(sequences, report.generatedBy));
}
