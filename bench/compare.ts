/**
 * `/face-matching/compare` latency through HTTP: a `veriport serve` process (in-memory store, face
 * workers = cores), closed-loop clients over keep-alive sockets at several concurrencies, every compare
 * two photos of the mix in bench/face-photos.ts (selfie to 5 MP). Reports p50/p95/p99/max per
 * concurrency and, alongside, the latency of `GET /health` polled every 100 ms (the event loop's
 * responsiveness). Writes reports/bench-compare.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { startServer } from '../test/helpers/process.js';
import { benchPhotos, type BenchPhoto } from './face-photos.js';
import { closedLoop, summarize, type LatencySummary, type LoadRequest, type LoadSample } from './http-load.js';

export interface CompareLevel {
  readonly concurrency: number;
  readonly requests: number;
  /** Answers that were not 200 (none expected: every pair has one face each). */
  readonly errors: number;
  readonly latencyMs: LatencySummary;
  readonly comparesPerSecond: number;
  readonly healthMs: LatencySummary;
}

export interface CompareBenchResult {
  readonly date: string;
  readonly machine: string;
  readonly faceWorkers: number;
  readonly loadAverage: { readonly before: number; readonly after: number };
  readonly photos: ReadonlyArray<{ readonly size: string; readonly bytes: number }>;
  readonly levels: readonly CompareLevel[];
}

export interface CompareBenchOptions {
  readonly concurrencies?: readonly number[];
  /** Compares per concurrency level (after a warm-up). */
  readonly requests?: number;
}

/**
 * The compare request of sequence number `s`: probe and gallery both run through the 12 photos, in
 * different orders, so sizes and people pair up in every combination over 12 requests.
 *
 * @example
 * const next = compareRequests(await benchPhotos()); next(0).path; // '/face-matching/compare'
 */
export function compareRequests(photos: readonly BenchPhoto[]): (sequence: number) => LoadRequest {
  const n = photos.length;
  const bodies = Array.from({ length: n }, (_, s) =>
    JSON.stringify({
      probe: { VISIBLE_FRONTAL: photos[s % n]?.base64 },
      gallery: { VISIBLE_FRONTAL: photos[(s * 5 + 7) % n]?.base64 },
    }),
  );
  return (sequence) => ({ kind: 'compare', path: '/face-matching/compare', body: bodies[sequence % n] ?? '' });
}

/** Polls `GET /health` every `everyMs` until `stop()`; resolves with the samples. */
function pollHealth(url: string, everyMs: number): { stop: () => Promise<LoadSample[]> } {
  const samples: LoadSample[] = [];
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      const status = await fetch(`${url}/health`).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
        () => 0,
      );
      const now = performance.now();
      samples.push({ kind: 'health', ms: now - sent, status, at: now - started });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (now - sent))));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * Runs the compare benchmark: about 20 s per concurrency level on a 2-core machine with the defaults.
 *
 * @example
 * const result = await benchCompare({ concurrencies: [1, 4], requests: 60 });
 * console.log(compareBenchTable(result));
 */
export async function benchCompare(options: CompareBenchOptions = {}): Promise<CompareBenchResult> {
  const concurrencies = options.concurrencies ?? [1, 2, 4, 8];
  const requests = options.requests ?? 120;
  const photos = await benchPhotos();
  const next = compareRequests(photos);
  const loadBefore = os.loadavg()[0] ?? 0;
  const server = await startServer({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'warn' });
  const levels: CompareLevel[] = [];
  try {
    // Warm-up: loads the models in every worker and sends every photo once.
    await closedLoop({ url: server.url, concurrency: 2, requests: photos.length, next });
    for (const concurrency of concurrencies) {
      const health = pollHealth(server.url, 100);
      const started = performance.now();
      const samples = await closedLoop({ url: server.url, concurrency, requests, next });
      const seconds = (performance.now() - started) / 1000;
      const healthSamples = await health.stop();
      const ok = samples.filter((s) => s.status === 200);
      levels.push({
        concurrency,
        requests: samples.length,
        errors: samples.length - ok.length,
        latencyMs: summarize(ok),
        comparesPerSecond: ok.length / seconds,
        healthMs: summarize(healthSamples),
      });
    }
  } finally {
    await server.stop();
  }
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    machine: `${cpus.length} x ${cpus[0]?.model ?? 'cpu'}, Node ${process.version}`,
    faceWorkers: os.availableParallelism(),
    loadAverage: { before: loadBefore, after: os.loadavg()[0] ?? 0 },
    photos: photos.map((p) => ({ size: p.size, bytes: p.jpeg.length })),
    levels,
  };
}

/**
 * The result as a markdown table, one row per concurrency.
 *
 * @example
 * process.stdout.write(compareBenchTable(await benchCompare()));
 */
export function compareBenchTable(result: CompareBenchResult): string {
  const sizes = [...new Set(result.photos.map((p) => p.size))];
  const kb = (size: string): string => {
    const bytes = result.photos.filter((p) => p.size === size).map((p) => p.bytes);
    return `${Math.round(Math.min(...bytes) / 1024)}-${Math.round(Math.max(...bytes) / 1024)} KB`;
  };
  const ms = (n: number): string => n.toFixed(0);
  return [
    `POST /face-matching/compare through HTTP, closed loop; ${result.machine}; ${result.faceWorkers} face workers; ` +
      `load average ${result.loadAverage.before.toFixed(2)} before / ${result.loadAverage.after.toFixed(2)} after.`,
    `Photos (3 people each): ${sizes.map((s) => `${s} (${kb(s)})`).join(', ')}; every compare two of them.`,
    '',
    '| concurrency | compares | errors | p50 ms | p95 ms | p99 ms | max ms | p99 / p50 | compares/s | /health p99 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...result.levels.map(
      (l) =>
        `| ${l.concurrency} | ${l.requests} | ${l.errors} | ${ms(l.latencyMs.p50)} | ${ms(l.latencyMs.p95)} | ` +
        `${ms(l.latencyMs.p99)} | ${ms(l.latencyMs.max)} | ${(l.latencyMs.p99 / l.latencyMs.p50).toFixed(2)} | ` +
        `${l.comparesPerSecond.toFixed(1)} | ${ms(l.healthMs.p99)} |`,
    ),
    '',
  ].join('\n');
}

/**
 * Writes reports/bench-compare.md and reports/bench-compare.json.
 *
 * @example
 * writeCompareReport(await benchCompare(), 'npm run bench -- --only compare');
 */
export function writeCompareReport(result: CompareBenchResult, command: string): void {
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-compare.md',
    `# Compare latency\n\nCommand: \`${command}\`\n\n${compareBenchTable(result)}`,
  );
  writeFileSync('reports/bench-compare.json', `${JSON.stringify(result, null, 2)}\n`);
}
