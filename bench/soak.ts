/**
 * `npm run bench -- soak [--minutes 10]`: memory of a `veriport serve` process under saturation. The
 * server runs as a child process (in-memory store, face workers = cores); 2 × cores closed-loop
 * clients send a mix of compare (40%), face-liveness checkLiveness (20%: 3-frame foxtrot4 sequences of a
 * simulated phone camera, decided LIVE), face-analysis analyzeImage
 * (30%) and malformed requests (10%) for the whole time, and the server's RSS (all threads, from
 * /proc) and main-thread heap (from /metrics) are sampled every 10 s. Writes the curve and the
 * verdict to reports/bench-soak.{md,json,svg}.
 *
 * Verdict: the first 20% of the run is warm-up (models load, the workers' WebAssembly heaps grow to
 * the largest photo, and the embedded store's start-up buffers, ~400 MB, are freed by the main
 * thread's first full GC, which came 10 to 110 s into the runs); the plateau is the median RSS of the
 * next 20%; the run is flat when every sample of its second half lies within ±10% of the plateau.
 * The growth is the least-squares slope in MB/min, over the second half and over everything after
 * the warm-up.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { DEFAULT_PROFILE_XML } from '../src/services/face-analysis/default-profiles.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import { simulatedCapture } from '../test/helpers/camera-simulation.js';
import { photoFrame } from '../test/helpers/faces.js';
import { startServer } from '../test/helpers/process.js';
import { compareRequests } from './compare.js';
import { benchPhotos } from './face-photos.js';
import { closedLoop, summarize, type LoadRequest, type LoadSample } from './http-load.js';

/** The share of the run after the warm-up that the plateau is measured over, and the band around it. */
const WARM_UP_SHARE = 0.2;
const PLATEAU_SHARE = 0.2;
const BAND = 0.1;
const MB = 1024 * 1024;

export interface SoakSample {
  /** Seconds since the load started. */
  readonly seconds: number;
  readonly rssMB: number;
  /** Main thread's V8 heap in use and external memory (Buffers), from `GET /metrics`; null if unavailable. */
  readonly heapUsedMB: number | null;
  readonly externalMB: number | null;
  /** Answers in the interval that ended at this sample, and their latency. */
  readonly answers: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface SoakResult {
  readonly date: string;
  readonly machine: string;
  readonly minutes: number;
  readonly concurrency: number;
  /** The server's decision on each of the liveness sequences, asked once before the load. */
  readonly livenessDecisions: readonly string[];
  /** Answers per request kind, by status. */
  readonly statuses: Record<string, Record<string, number>>;
  /** Answers of an unexpected status (a 5xx, a 2xx to a malformed request, a failed connection). */
  readonly unexpected: number;
  readonly samples: readonly SoakSample[];
  readonly plateauMB: number;
  readonly bandMB: number;
  /** Largest distance of a second-half sample from the plateau. */
  readonly maxDeviationMB: number;
  readonly flat: boolean;
  readonly slopeSecondHalfMBPerMin: number;
  readonly slopeAfterWarmUpMBPerMin: number;
  readonly peakRssMB: number;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

async function heapOf(url: string): Promise<{ heapUsedMB: number | null; externalMB: number | null }> {
  const text = await fetch(`${url}/metrics`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  const metric = (name: string): number | null => {
    const value = new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1];
    return value === undefined ? null : Number(value) / MB;
  };
  return {
    heapUsedMB: metric('veriport_nodejs_heap_size_used_bytes'),
    externalMB: metric('veriport_nodejs_external_memory_bytes'),
  };
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxy / sxx;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * Three foxtrot sequences a live user's phone would send: simulated captures (test/helpers/camera-simulation.ts:
 * fresh sensor noise per frame, hand shake with parallax, a blink) of each packaged person in their own
 * surroundings, which the server decides LIVE. Shifted copies of one still would be refused as the replays
 * they are, and the soak would not exercise the live path. The meshes come from a one-worker face engine here.
 */
export async function livenessCaptures(): Promise<Buffer[][]> {
  const engine = FaceEngine.start({ workers: 1 });
  try {
    const people = ['anna', 'bella', 'carla'] as const;
    const captures: Buffer[][] = [];
    for (const [i, person] of people.entries())
      captures.push(await simulatedCapture(engine, await photoFrame(person), { seed: 11 + i, blinkFrame: 1 }));
    return captures;
  } finally {
    await engine.close();
  }
}

/** The request mix, by sequence number: 4 compares, 2 liveness checks, 3 analyses, 1 malformed in every 10. */
async function soakRequests(): Promise<{ next: (sequence: number) => LoadRequest; liveness: readonly string[] }> {
  const photos = await benchPhotos();
  const compare = compareRequests(photos);
  const liveness = (await livenessCaptures()).map((frames) =>
    JSON.stringify({
      video: {
        meta_data: {},
        workflow_data: {
          workflow: 'foxtrot4',
          frames: frames.map((f, i) => ({ data: f.toString('base64'), timestamp: 1000 + i * 100 })),
        },
      },
    }),
  );
  const analyses = photos.map((p) =>
    JSON.stringify({
      images: [
        { id: 'i', input: { imageData: p.base64 }, output: [{ id: 'o', profileXml: DEFAULT_PROFILE_XML.selfie }] },
      ],
    }),
  );
  const sample = photos[0]?.base64 ?? '';
  const malformed: LoadRequest[] = [
    {
      kind: 'malformed',
      path: '/face-matching/compare',
      body: `{"probe":{"VISIBLE_FRONTAL":"${sample.slice(0, 5000)}`,
    },
    { kind: 'malformed', path: '/face-matching/compare', body: JSON.stringify({ probe: { VISIBLE_FRONTAL: '***' } }) },
    {
      kind: 'malformed',
      path: '/face-matching/compare',
      // Valid base64 of bytes that are no image.
      body: JSON.stringify({
        probe: { VISIBLE_FRONTAL: Buffer.alloc(200_000, 7).toString('base64') },
        gallery: { VISIBLE_FRONTAL: sample },
      }),
    },
    {
      kind: 'malformed',
      path: '/face-analysis/analyzeImage',
      // A JPEG cut in half.
      body: JSON.stringify({
        images: [{ id: 'i', input: { imageData: sample.slice(0, (sample.length >> 3) << 2) }, output: [{ id: 'o' }] }],
      }),
    },
    { kind: 'malformed', path: '/face-liveness/checkLiveness', body: JSON.stringify({ video: { workflow_data: 1 } }) },
  ];
  const next = (sequence: number): LoadRequest => {
    const slot = sequence % 10;
    const round = Math.floor(sequence / 10);
    if (slot < 4) return compare(round * 4 + slot);
    if (slot < 6) return { kind: 'liveness', path: '/face-liveness/checkLiveness', body: liveness[round % 3] ?? '' };
    if (slot < 9)
      return { kind: 'analysis', path: '/face-analysis/analyzeImage', body: analyses[(round * 3 + slot) % 12] ?? '' };
    return malformed[round % malformed.length] ?? { kind: 'malformed', path: '/', body: '' };
  };
  return { next, liveness };
}

/** `value[key]` when value is an object that has it. */
function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const own: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
  return own;
}

/** The decision the server gives each liveness body, asked once before the load (LIVE for a camera's frames). */
async function livenessDecisions(url: string, bodies: readonly string[]): Promise<string[]> {
  const decisions: string[] = [];
  for (const body of bodies) {
    const response = await fetch(`${url}/face-liveness/checkLiveness`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const answer: unknown = await response.json().catch(() => undefined);
    const decision = field(field(field(answer, 'video'), 'liveness_result'), 'decision');
    decisions.push(typeof decision === 'string' ? decision : `HTTP ${response.status}`);
  }
  return decisions;
}

/**
 * Runs the soak for `minutes` and judges the RSS curve.
 *
 * @example
 * const result = await benchSoak({ minutes: 10 });
 * writeSoakReport(result, 'npm run bench -- soak --minutes 10');
 */
export async function benchSoak(options: { minutes: number; concurrency?: number }): Promise<SoakResult> {
  const concurrency = options.concurrency ?? 2 * os.availableParallelism();
  const { next, liveness } = await soakRequests();
  const server = await startServer({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'warn' });
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  let decisions: string[] | undefined;
  const statuses: Record<string, Record<string, number>> = {};
  let unexpected = 0;
  let interval: LoadSample[] = [];
  const samples: SoakSample[] = [];
  const started = performance.now();
  const take = async (): Promise<void> => {
    const latency = summarize(interval);
    const heap = await heapOf(server.url);
    samples.push({
      seconds: (performance.now() - started) / 1000,
      rssMB: rssOf(pid),
      ...heap,
      answers: interval.length,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
    });
    interval = [];
    const last = samples[samples.length - 1];
    if (last !== undefined)
      process.stderr.write(
        `soak ${last.seconds.toFixed(0)} s: RSS ${last.rssMB.toFixed(0)} MB, heap ${last.heapUsedMB?.toFixed(0) ?? '?'} MB, ${last.answers} answers\n`,
      );
  };
  try {
    decisions = await livenessDecisions(server.url, liveness);
    await take();
    const timer = setInterval(() => void take(), 10_000);
    try {
      await closedLoop({
        url: server.url,
        concurrency,
        durationMs: options.minutes * 60_000,
        next,
        onSample: (s) => {
          interval.push(s);
          const byStatus = (statuses[s.kind] ??= {});
          byStatus[String(s.status)] = (byStatus[String(s.status)] ?? 0) + 1;
          const ok = s.kind === 'malformed' ? s.status >= 400 && s.status < 500 : s.status === 200;
          if (!ok) unexpected += 1;
        },
      });
    } finally {
      clearInterval(timer);
    }
    await take();
  } finally {
    await server.stop();
  }
  const total = options.minutes * 60;
  const after = samples.filter((s) => s.seconds >= WARM_UP_SHARE * total);
  const plateau = median(
    samples
      .filter((s) => s.seconds >= WARM_UP_SHARE * total && s.seconds <= (WARM_UP_SHARE + PLATEAU_SHARE) * total)
      .map((s) => s.rssMB),
  );
  const secondHalf = samples.filter((s) => s.seconds >= total / 2);
  const maxDeviation = Math.max(0, ...secondHalf.map((s) => Math.abs(s.rssMB - plateau)));
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    machine: `${cpus.length} x ${cpus[0]?.model ?? 'cpu'}, Node ${process.version}`,
    minutes: options.minutes,
    concurrency,
    livenessDecisions: decisions ?? [],
    statuses,
    unexpected,
    samples,
    plateauMB: plateau,
    bandMB: BAND * plateau,
    maxDeviationMB: maxDeviation,
    flat: maxDeviation <= BAND * plateau,
    slopeSecondHalfMBPerMin: slope(secondHalf.map((s) => [s.seconds / 60, s.rssMB] as const)),
    slopeAfterWarmUpMBPerMin: slope(after.map((s) => [s.seconds / 60, s.rssMB] as const)),
    peakRssMB: Math.max(...samples.map((s) => s.rssMB)),
  };
}

/**
 * The verdict and the curve as markdown.
 *
 * @example
 * process.stdout.write(soakTable(await benchSoak({ minutes: 10 })));
 */
export function soakTable(result: SoakResult): string {
  const mb = (n: number | null): string => (n === null ? '-' : n.toFixed(0));
  const counts = Object.entries(result.statuses)
    .map(
      ([kind, by]) =>
        `${kind} ${Object.entries(by)
          .map(([status, n]) => `${n}×${status}`)
          .join(' ')}`,
    )
    .join('; ');
  return [
    `${result.minutes} min at ${result.concurrency} concurrent clients; ${result.machine}.`,
    `Answers: ${counts}; unexpected: ${result.unexpected}.`,
    `Liveness sequences (foxtrot4, simulated camera captures) decided: ${result.livenessDecisions.join(', ')}.`,
    '',
    `**${result.flat ? 'Flat' : 'Growing'}**: plateau (median RSS of minutes ` +
      `${(WARM_UP_SHARE * result.minutes).toFixed(1)}-${((WARM_UP_SHARE + PLATEAU_SHARE) * result.minutes).toFixed(1)}) ` +
      `${mb(result.plateauMB)} MB; second half within ${result.maxDeviationMB.toFixed(0)} MB of it ` +
      `(band ±${(BAND * 100).toFixed(0)}% = ±${mb(result.bandMB)} MB); growth ` +
      `${result.slopeSecondHalfMBPerMin.toFixed(1)} MB/min over the second half, ` +
      `${result.slopeAfterWarmUpMBPerMin.toFixed(1)} MB/min after the warm-up (least squares); peak ${mb(result.peakRssMB)} MB.`,
    '',
    '| s | RSS MB | main heap used MB | main external MB | answers in 10 s | p50 ms | p99 ms |',
    '|---|---|---|---|---|---|---|',
    ...result.samples.map(
      (s) =>
        `| ${s.seconds.toFixed(0)} | ${mb(s.rssMB)} | ${mb(s.heapUsedMB)} | ${mb(s.externalMB)} | ${s.answers} | ` +
        `${Number.isNaN(s.p50Ms) ? '-' : s.p50Ms.toFixed(0)} | ${Number.isNaN(s.p99Ms) ? '-' : s.p99Ms.toFixed(0)} |`,
    ),
    '',
  ].join('\n');
}

/** The RSS and heap curves as a small SVG line chart. */
function soakSvg(result: SoakResult): string {
  const [w, h, pad] = [720, 320, 40];
  const tMax = Math.max(1, ...result.samples.map((s) => s.seconds));
  const yMax = Math.max(1, result.peakRssMB) * 1.1;
  const x = (t: number): number => pad + ((w - 2 * pad) * t) / tMax;
  const y = (v: number): number => h - pad - ((h - 2 * pad) * v) / yMax;
  const line = (values: Array<[number, number | null]>, colour: string): string =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${values
      .filter((v): v is [number, number] => v[1] !== null)
      .map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`)
      .join(' ')}"/>`;
  const band = [result.plateauMB - result.bandMB, result.plateauMB + result.bandMB];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">`,
    `<rect x="${pad}" y="${y(band[1] ?? 0).toFixed(1)}" width="${w - 2 * pad}" height="${(y(band[0] ?? 0) - y(band[1] ?? 0)).toFixed(1)}" fill="#ddeeff"/>`,
    `<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="black"/>`,
    `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="black"/>`,
    line(
      result.samples.map((s) => [s.seconds, s.rssMB]),
      '#1f77b4',
    ),
    line(
      result.samples.map((s) => [s.seconds, s.heapUsedMB]),
      '#ff7f0e',
    ),
    `<text x="${pad}" y="${pad - 10}">RSS (blue; band: plateau ±${(BAND * 100).toFixed(0)}%) and main-thread heap used (orange), MB; max ${yMax.toFixed(0)}</text>`,
    `<text x="${w - pad}" y="${h - pad + 16}" text-anchor="end">${tMax.toFixed(0)} s</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * Writes reports/bench-soak.md, .json and .svg.
 *
 * @example
 * writeSoakReport(result, 'npm run bench -- soak --minutes 10');
 */
export function writeSoakReport(result: SoakResult, command: string): void {
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-soak.md',
    `# Soak: server memory under saturation\n\nCommand: \`${command}\`\n\n![RSS curve](bench-soak.svg)\n\n${soakTable(result)}`,
  );
  writeFileSync('reports/bench-soak.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync('reports/bench-soak.svg', soakSvg(result));
}
