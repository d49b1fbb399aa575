/**
 * `npm run eval -- liveness-attacks <dir> [--workers N] [--sources N] [--seed N] [--detector tfjs|onnx]`
 *
 * Replayed stills against the multi-frame liveness signals (issue 16), written to
 * reports/liveness-attacks.{md,json}. From each of `--sources` live photos of `<dir>/pad` (spread over the
 * persons):
 * - the live side: a simulated phone capture of the photo (test/helpers/camera-simulation.ts: fresh
 *   sensor noise per frame at a random exposure, hand shake, the head moving against the background,
 *   some blinks and mouth motion), 3 frames, as foxtrot4 and as charlie4 (the face lit by the screen);
 * - the attacks, from the capture's first frame (a camera frame with its own frozen noise): identical,
 *   re-encoded, shifted, scaled, rotated, brightness-ramped, noised, panned, zoomed, composited over a
 *   live background, other photos of the same person (test/helpers/replay-attacks.ts), as foxtrot4,
 *   charlie4 (each frame tinted by its screen colour before its one encoding, as an attacker who knows
 *   the colours would render it) and active
 *   (hotel4 + active_left + active_right made of the attack frames).
 * Reported: the share rejected per attack kind and workflow (decision not LIVE, and refused by the
 * injection signals), the live pass rate by noise level, each measure's spread for the thresholds, and
 * the time of a 3-frame foxtrot request.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import type { WorkerAnalysis } from '../src/engines/face/face-analysis-types.js';
import { facialDeformation } from '../src/engines/liveness/facial-deformation.js';
import { parseLivenessRequest, type LivenessRequest } from '../src/engines/liveness/liveness-request.js';
import {
  analyzeFrames,
  decidePassiveLiveness,
  subjectOf,
  type LivenessContext,
  type LivenessResult,
} from '../src/engines/liveness/passive-liveness.js';
import { motionFrames, sequenceMotion } from '../src/engines/liveness/sequence-motion.js';
import { seededRandom } from '../src/lib/seeded-random.js';
import { decideActiveLiveness } from '../src/services/face-liveness/active-liveness.js';
import {
  handHeldMotions,
  photoScene,
  randomCamera,
  simulateCapture,
  type CameraScene,
  type FrameMotion,
} from '../test/helpers/camera-simulation.js';
import {
  brightnessRamp,
  composited,
  identical,
  reencoded,
  tinted,
  transformed,
  withNoise,
  type Rgb,
} from '../test/helpers/replay-attacks.js';
import { detectorOption, DETECTOR_OPTION } from './detector-option.js';
import { loadPadImages, type PadImage } from './face-dataset.js';

const OUTPUT = { width: 480, height: 640 } as const;
const WORKFLOWS = ['foxtrot', 'charlie', 'active'] as const;
type Workflow = (typeof WORKFLOWS)[number];

/** What one judged sequence showed. */
interface Outcome {
  readonly live: boolean;
  readonly injection: boolean;
  readonly failed: readonly string[];
  /** Lowest noise / re-encoding floor over the pairs (temporal-noise.ts). */
  readonly noiseRatio: number | undefined;
  /** Largest face-against-background disagreement (px) among pairs that moved, and the largest motion. */
  readonly parallax: number | undefined;
  readonly motion: number | undefined;
  readonly deformation: number | undefined;
}

interface Tally {
  n: number;
  rejected: number;
  injection: number;
  fails: Record<string, number>;
  noiseRatios: number[];
  parallaxes: number[];
  deformations: number[];
}

const SIGNALS = [
  'temporal_noise_analysis',
  'planar_motion_detection',
  'facial_motion_analysis',
  'image_similarity_detection',
  'face_swap_detection',
  'optical_analysis',
] as const;

/**
 * The suite (see the file comment).
 *
 * @example
 * await evalLivenessAttacks(['../shared/data/faces/dev', '--sources', '12']);
 */
export async function evalLivenessAttacks(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workers: { type: 'string', default: '2' },
      sources: { type: 'string', default: '24' },
      seed: { type: 'string', default: '16' },
      ...DETECTOR_OPTION,
    },
  });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: npm run eval -- liveness-attacks <dir> [--workers N] [--sources N]');
  const workers = Number(values.workers);
  const random = seededRandom(Number(values.seed));
  const live = loadPadImages(dir).filter((i) => i.live);
  const sources = spreadOverPersons(live, Number(values.sources));
  const engine = FaceEngine.start({ workers, pipeline: { detector: detectorOption(values.detector) } });
  const context: LivenessContext = { now: Date.now(), maxAgeMs: 1e12, maxSkewMs: 1e12, iadModes: new Map() };
  const tallies = new Map<string, Tally>();
  const liveRows: Array<{ file: string; sigma: number; foxtrot: Outcome; charlie: Outcome }> = [];
  const record = (kind: string, workflow: Workflow, outcome: Outcome) => {
    const key = `${kind}\t${workflow}`;
    const t = tallies.get(key) ?? {
      n: 0,
      rejected: 0,
      injection: 0,
      fails: {},
      noiseRatios: [],
      parallaxes: [],
      deformations: [],
    };
    t.n++;
    if (!outcome.live) t.rejected++;
    if (outcome.injection) t.injection++;
    for (const f of outcome.failed) t.fails[f] = (t.fails[f] ?? 0) + 1;
    if (outcome.noiseRatio !== undefined) t.noiseRatios.push(outcome.noiseRatio);
    if (outcome.parallax !== undefined) t.parallaxes.push(outcome.parallax);
    if (outcome.deformation !== undefined) t.deformations.push(outcome.deformation);
    tallies.set(key, t);
  };
  const started = performance.now();
  try {
    for (const [index, source] of sources.entries()) {
      const scene = await sceneOf(engine, readFileSync(source.file));
      if (scene === undefined) {
        console.log(`${source.file}: no face, skipped`);
        continue;
      }
      // A sensor between bright light and dim, hand-held motion, sometimes a blink or the mouth opening.
      const { sensor, motions } = randomCamera(random);
      const { fullWell } = sensor;
      const colours = shuffledColours(random);
      const seed = 1000 + index;
      const capture = await simulateCapture(scene, motions, sensor, seed);
      const lit = await simulateCapture(
        scene,
        motions.map((m, i): FrameMotion => ({ ...m, screen: colours[i] })),
        sensor,
        seed,
      );
      const foxtrot = await judge(engine, 'foxtrot4', capture, context);
      const charlie = await judge(engine, 'charlie4', lit, context, colours);
      liveRows.push({ file: source.file, sigma: lumaNoise(fullWell), foxtrot, charlie });
      record('live (simulated camera)', 'foxtrot', foxtrot);
      record('live (simulated camera)', 'charlie', charlie);

      const still = capture[0];
      if (still === undefined) continue;
      const made = { engine, still, scene, source, live, sensor, motions, seed };
      for (const [kind, frames] of await attackSequences(made)) {
        record(kind, 'foxtrot', await judge(engine, 'foxtrot4', frames.slice(0, 3), context));
        record(kind, 'active', await judgeActive(engine, frames, context));
      }
      // Charlie: the same attacks, each frame tinted by its screen colour before its one encoding.
      for (const [kind, frames] of await attackSequences({ ...made, screen: colours })) {
        record(kind, 'charlie', await judge(engine, 'charlie4', frames.slice(0, 3), context, colours));
      }
      console.log(
        `${index + 1}/${sources.length} ${source.file}: live foxtrot ${foxtrot.live ? 'LIVE' : 'refused'} ` +
          `(${foxtrot.failed.join(',') || 'no signal failed'}), ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    const latency = await foxtrotLatency(engine, sources, random);
    writeReports({ dir, workers, sources: liveRows.length, tallies, liveRows, latency });
  } finally {
    await engine.close();
  }
}

/**
 * Up to `count` live photos, taking each person's in turn so every person is represented.
 *
 * @example
 * spreadOverPersons(loadPadImages(dir).filter((i) => i.live), 24);
 */
export function spreadOverPersons(images: readonly PadImage[], count: number): PadImage[] {
  const byPerson = new Map<string, PadImage[]>();
  for (const image of images) byPerson.set(image.person, [...(byPerson.get(image.person) ?? []), image]);
  const queues = [...byPerson.values()];
  const out: PadImage[] = [];
  for (let round = 0; out.length < count && queues.some((q) => q.length > round); round++)
    for (const queue of queues) {
      const image = queue[round];
      if (image !== undefined && out.length < count) out.push(image);
    }
  return out;
}

/** The camera scene of a photo (its largest face's mesh); undefined without a face. */
function sceneOf(engine: FaceEngine, photo: Buffer): Promise<CameraScene | undefined> {
  return photoScene(engine, photo, OUTPUT);
}

/** Luma noise (levels) of the simulated sensor in mid-grey before JPEG, Bayer 2×2 binned (camera-simulation.ts). */
function lumaNoise(fullWell: number): number {
  const linear = 0.216; // mid-grey
  const slope = 274; // sRGB levels per unit of linear light at mid-grey
  const single = (slope * linear) / Math.sqrt(linear * fullWell);
  return single * Math.sqrt(0.299 ** 2 + 0.587 ** 2 / 2 + 0.114 ** 2);
}

function shuffledColours(random: () => number): Rgb[] {
  const colours: Rgb[] = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
    [0, 255, 255],
    [255, 0, 255],
  ];
  for (let i = colours.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = colours[i];
    const b = colours[j];
    if (a && b) [colours[i], colours[j]] = [b, a];
  }
  return colours.slice(0, 3);
}

/** What the attacks are made from. */
interface AttackMaterial {
  readonly engine: FaceEngine;
  /** The still replayed: the first frame of the simulated capture. */
  readonly still: Buffer;
  readonly scene: CameraScene;
  readonly source: PadImage;
  readonly live: readonly PadImage[];
  readonly sensor: { fullWell: number; readNoise: number; quality: number };
  readonly motions: readonly FrameMotion[];
  readonly seed: number;
  /** Charlie: each frame tinted by its screen colour before its one encoding. */
  readonly screen?: readonly Rgb[];
}

/** Every attack kind's frames, from one still (and, for some, the scene and other photos of the person). */
async function attackSequences(m: AttackMaterial): Promise<Array<[string, Buffer[]]>> {
  const { still, screen } = m;
  const shifts = (quality?: number, firstQuality?: number) => [
    { quality: quality ?? 90, firstQuality },
    { dx: 1, quality: quality ?? 89, firstQuality },
    { dx: 2, dy: -1, quality: quality ?? 88, firstQuality },
  ];
  const moved = (moves: Parameters<typeof transformed>[1], kernel: 'bilinear' | 'bicubic' = 'bicubic') =>
    transformed(still, moves, kernel, screen);
  const out: Array<[string, Buffer[]]> = [
    ['identical', await identical(still, 3, screen)],
    ['re-encoded q90/89/88', await reencoded(still, [90, 89, 88], screen)],
    ['shifted 1-2 px', await moved(shifts())],
    ['shifted 0.5 px steps', await moved([{}, { dx: 0.5 }, { dx: 1, dy: 0.5 }])],
    ['shifted 1-2 px, q95', await moved(shifts(95))],
    ['shifted 1-2 px, q80', await moved(shifts(80))],
    ['shifted 1-2 px, q70', await moved(shifts(70))],
    ['shifted 1-2 px, q70 then q90 (double)', await moved(shifts(90, 70))],
    ['scaled 1-2%', await moved([{}, { scale: 1.01 }, { scale: 1.02 }])],
    ['rotated 0.7-1.4°', await moved([{}, { degrees: 0.7 }, { degrees: 1.4 }])],
    [
      'scaled+rotated, bilinear',
      await moved([{}, { scale: 1.01, degrees: 0.5 }, { scale: 0.99, degrees: -0.5 }], 'bilinear'),
    ],
    ['brightness ramp', await brightnessRamp(still, [1, 1.04, 1.08], screen)],
    ['noise σ1', await withNoise(still, 1, { seed: m.seed, screen })],
    ['noise σ2', await withNoise(still, 2, { seed: m.seed, screen })],
    ['noise σ3', await withNoise(still, 3, { seed: m.seed, screen })],
    ['slow pan 3 px/frame', await moved([{}, { dx: 3, dy: 1 }, { dx: 6, dy: 2 }])],
    ['slow zoom 1.5%/frame', await moved([{}, { scale: 1.015 }, { scale: 1.03 }])],
  ];
  const lit = (motions: readonly FrameMotion[]) =>
    screen ? motions.map((motion, i): FrameMotion => ({ ...motion, screen: screen[i] })) : motions;
  // The still's face pasted over another capture of the scene: a live background, a frozen face.
  const analysis = await m.engine.analyze(still, { views: [], description: false });
  const face = [...analysis.faces].sort((a, b) => b.box[2] - a.box[2])[0];
  if (face) {
    const backgrounds = await simulateCapture(m.scene, lit(m.motions), m.sensor, m.seed + 7);
    out.push(['still face over a live background', await composited(still, face.box, backgrounds, screen)]);
  }
  // Other photos of the same person, each as a camera frame of its own.
  const others = m.live.filter((i) => i.person === m.source.person && i.file !== m.source.file).slice(0, 2);
  if (others.length === 2) {
    const frames = [screen ? await tinted(still, screen[0] ?? [255, 255, 255]) : still];
    for (const [k, other] of others.entries()) {
      const otherScene = await sceneOf(m.engine, readFileSync(other.file));
      const motion = lit(m.motions)[k + 1];
      const [frame] = otherScene && motion ? await simulateCapture(otherScene, [motion], m.sensor, m.seed + 13) : [];
      if (frame) frames.push(frame);
    }
    if (frames.length === 3) out.push(['other photos of the person', frames]);
  }
  return out;
}

/** One sequence through a passive workflow, with the measures behind the multi-frame signals. */
async function judge(
  engine: FaceEngine,
  workflow: string,
  frames: readonly Buffer[],
  context: LivenessContext,
  colours?: readonly Rgb[],
): Promise<Outcome> {
  const request = await requestOf(workflow, frames, colours);
  const analyses = await analyzeFrames(engine, request);
  return outcomeOf(decidePassiveLiveness(request, analyses, context), request, analyses);
}

/** hotel4 (the first frame) + active_left and active_right (all frames each) through checkActiveLiveness's decision. */
async function judgeActive(engine: FaceEngine, frames: readonly Buffer[], context: LivenessContext): Promise<Outcome> {
  const passive = await requestOf('hotel4', frames.slice(0, 1));
  const left = await requestOf('active_left', frames);
  const right = await requestOf('active_right', [...frames].reverse());
  const [p, l, r] = await Promise.all([passive, left, right].map((q) => analyzeFrames(engine, q)));
  const result = decideActiveLiveness(passive, p ?? [], [left, right], [l ?? [], r ?? []], context);
  const signals = result.details.active_liveness.decision_info.IAD.signals;
  return {
    live: result.decision === 'LIVE',
    injection: result.feedback.includes('INJECTION_ATTACK_SUSPECTED'),
    failed: SIGNALS.filter((s) => signals[s].status === 'FAIL'),
    noiseRatio: undefined,
    parallax: undefined,
    motion: undefined,
    deformation: undefined,
  };
}

async function requestOf(
  workflow: string,
  frames: readonly Buffer[],
  colours?: readonly Rgb[],
): Promise<LivenessRequest> {
  const hex = (c: Rgb) =>
    c
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase();
  return parseLivenessRequest(
    {
      workflow,
      frames: frames.map((f, i) => {
        const colour = colours?.[i];
        return {
          data: f.toString('base64'),
          timestamp: 1000 + i * 100,
          ...(colour ? { tags: [`SCREEN_COLOR_${hex(colour)}`] } : {}),
        };
      }),
    },
    undefined,
  );
}

function outcomeOf(result: LivenessResult, request: LivenessRequest, analyses: readonly WorkerAnalysis[]): Outcome {
  const subjects = analyses.map((a) => subjectOf(a, request, new Set()));
  const pairs = sequenceMotion(
    motionFrames(
      analyses,
      subjects,
      request.frames.map((f) => f.bytes),
    ),
  );
  const ratios = pairs.flatMap((p) => (p.noise === undefined ? [] : [p.noise / p.floor]));
  const moved = pairs.flatMap((p) =>
    p.disparity === undefined || p.backgroundMotion === undefined
      ? []
      : [{ disagreement: p.disparity, motion: p.backgroundMotion }],
  );
  const signals = result.decision_info.IAD.signals;
  return {
    live: result.decision === 'LIVE',
    injection: result.feedback.includes('INJECTION_ATTACK_SUSPECTED'),
    failed: SIGNALS.filter((s) => signals[s].status === 'FAIL'),
    noiseRatio: ratios.length > 0 ? Math.min(...ratios) : undefined,
    parallax: moved.length > 0 ? Math.max(...moved.map((m) => m.disagreement)) : undefined,
    motion: moved.length > 0 ? Math.max(...moved.map((m) => m.motion)) : undefined,
    deformation: facialDeformation(subjects.flatMap((s) => (s ? [s.mesh] : []))),
  };
}

/** Milliseconds per 3-frame foxtrot request (parse, analyse in the pool, decide), after one warm-up. */
async function foxtrotLatency(
  engine: FaceEngine,
  sources: readonly PadImage[],
  random: () => number,
): Promise<{ runs: number; medianMs: number; p90Ms: number; load: number[]; cores: number }> {
  const source = sources[0];
  const scene = source && (await sceneOf(engine, readFileSync(source.file)));
  if (!scene) throw new Error('no source photo with a face for the timing');
  const frames = await simulateCapture(
    scene,
    handHeldMotions(3, random),
    { fullWell: 1800, readNoise: 3, quality: 90 },
    5,
  );
  const context: LivenessContext = { now: Date.now(), maxAgeMs: 1e12, maxSkewMs: 1e12, iadModes: new Map() };
  const times: number[] = [];
  const load = loadavg();
  for (let run = 0; run < 16; run++) {
    const t0 = performance.now();
    const request = await requestOf('foxtrot4', frames);
    decidePassiveLiveness(request, await analyzeFrames(engine, request), context);
    if (run > 0) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { runs: times.length, medianMs: at(0.5), p90Ms: at(0.9), load: [...load, ...loadavg()], cores: cpus().length };
}

function writeReports(r: {
  dir: string;
  workers: number;
  sources: number;
  tallies: Map<string, Tally>;
  liveRows: Array<{ file: string; sigma: number; foxtrot: Outcome; charlie: Outcome }>;
  latency: { runs: number; medianMs: number; p90Ms: number; load: number[]; cores: number };
}): void {
  const pct = (k: number, n: number) => (n === 0 ? '–' : `${((100 * k) / n).toFixed(0)}%`);
  const spread = (values: readonly number[]) => {
    if (values.length === 0) return '–';
    const s = [...values].sort((a, b) => a - b);
    const q = (p: number) => (s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN).toFixed(2);
    return `${(s[0] ?? Number.NaN).toFixed(2)} / ${q(0.5)} / ${(s[s.length - 1] ?? Number.NaN).toFixed(2)}`;
  };
  const kinds = [...new Set([...r.tallies.keys()].map((k) => k.split('\t')[0] ?? ''))];
  const get = (kind: string, w: Workflow) => r.tallies.get(`${kind}\t${w}`);
  const rejection = [
    '| sequence | foxtrot4 rejected (by injection signals) | charlie4 rejected (by injection signals) | active rejected (by injection signals) |',
    '|---|---|---|---|',
    ...kinds.map((kind) => {
      const cells = WORKFLOWS.map((w) => {
        const t = get(kind, w);
        return t ? `${pct(t.rejected, t.n)} (${pct(t.injection, t.n)}) of ${t.n}` : 'not simulated';
      });
      return `| ${kind} | ${cells.join(' | ')} |`;
    }),
  ].join('\n');
  const signalTable = [
    `| sequence (foxtrot4) | ${SIGNALS.join(' | ')} |`,
    `|---|${SIGNALS.map(() => '---').join('|')}|`,
    ...kinds.map((kind) => {
      const t = get(kind, 'foxtrot');
      return `| ${kind} | ${SIGNALS.map((s) => (t ? pct(t.fails[s] ?? 0, t.n) : '–')).join(' | ')} |`;
    }),
  ].join('\n');
  const measureTable = [
    '| sequence (foxtrot4) | noise / re-encoding floor, min over pairs | face-background disagreement, px | facial deformation (× still jitter) |',
    '|---|---|---|---|',
    ...kinds.map((kind) => {
      const t = get(kind, 'foxtrot');
      return t ? `| ${kind} | ${spread(t.noiseRatios)} | ${spread(t.parallaxes)} | ${spread(t.deformations)} |` : '';
    }),
  ].join('\n');
  const bins = [
    [0, 1.1],
    [1.1, 1.4],
    [1.4, 1.8],
    [1.8, 9],
  ] as const;
  const liveTable = [
    '| sensor luma noise (levels, mid-grey) | captures | foxtrot4 LIVE | foxtrot4 passed the injection signals | charlie4 LIVE | charlie4 passed the injection signals |',
    '|---|---|---|---|---|---|',
    ...bins.map(([lo, hi]) => {
      const rows = r.liveRows.filter((x) => x.sigma >= lo && x.sigma < hi);
      const n = rows.length;
      const count = (f: (x: (typeof rows)[number]) => boolean) => pct(rows.filter(f).length, n);
      return `| ${lo.toFixed(1)}-${hi === 9 ? '' : hi.toFixed(1)} | ${n} | ${count((x) => x.foxtrot.live)} | ${count((x) => !x.foxtrot.injection)} | ${count((x) => x.charlie.live)} | ${count((x) => !x.charlie.injection)} |`;
    }),
  ].join('\n');
  const l = r.latency;
  const md = `# Replayed stills against the multi-frame liveness signals

\`npm run eval -- liveness-attacks ${r.dir} --workers ${r.workers}\` (${new Date().toISOString().slice(0, 10)}), ${r.sources} source photos.

No recorded live video is at hand: the live side is a **simulated** phone capture of each photo
(test/helpers/camera-simulation.ts). Every threshold below separates these simulations from the attacks;
a real camera whose video frames carry less noise than the simulated ones (strong temporal denoising in its
ISP, very bright light) would be refused (docs/liveness.md).

## Share rejected

"Rejected": the decision is not LIVE (PAD, quality gates or injection signals); in brackets, refused by the
injection signals (feedback INJECTION_ATTACK_SUSPECTED). Charlie attacks are tinted to follow the screen
colours, so the light trace passes them. Active: hotel4 on the first frame, active_left and active_right made of
the attack frames; a live active capture (a 3-D head turn) cannot be simulated from one photo.

${rejection}

## Signals failing (foxtrot4)

${signalTable}

## Measures (min / median / max)

${measureTable}

## Live pass rate by sensor noise

${liveTable}

## Time

3-frame foxtrot4 request at 480×640, ${r.workers} workers, ${l.runs} runs: median ${l.medianMs.toFixed(0)} ms, p90 ${l.p90Ms.toFixed(0)} ms
(load average ${l.load
    .slice(0, 3)
    .map((x) => x.toFixed(1))
    .join(', ')} before, ${l.load
    .slice(3)
    .map((x) => x.toFixed(1))
    .join(', ')} after, on ${l.cores} cores shared with other work: indicative).
`;
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/liveness-attacks.md', md);
  const json = {
    dir: r.dir,
    workers: r.workers,
    sources: r.sources,
    tallies: Object.fromEntries(r.tallies),
    live: r.liveRows,
    latency: r.latency,
  };
  writeFileSync('reports/liveness-attacks.json', `${JSON.stringify(json, null, 1)}\n`);
  console.log(md);
}
