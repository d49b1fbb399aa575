/**
 * `npm run bench [-- --seconds N --connections C --rounds R --requests N --only
 *   server|matching|face|compare|document|voice
 *   --detector tfjs|onnx]`
 * `npm run bench -- soak [--minutes M]`
 *
 * 1. Server: throughput of a cheap endpoint (`GET /face-matching/version`) on `veriport serve`
 *    processes, with usage counting on and off, in alternating rounds within one run, and the cost
 *    of one `UsageRecorder.record` call. Prints a table and writes reports/bench-server.{md,json}.
 * 2. Matching: 1:N gallery search (bench/matching.ts). Prints a table and writes
 *    reports/bench-matching.{md,json}.
 *
 * 3. Face: face-engine latency per algorithm at 640×480 (bench/face.ts); writes
 *    reports/bench-face.{md,json}.
 *
 * 4. Compare: `/face-matching/compare` latency through HTTP at concurrency 1, 2, 4 and 8, `--requests`
 *    compares each (bench/compare.ts); writes reports/bench-compare.{md,json}.
 *
 * 5. Document: document-engine CPU and wall time per 1280×720 autocapture frame and per validation page, per
 *    stage, against issue 17's goals (bench/document.ts); writes reports/bench-document.{md,json}.
 *
 * 6. Voice: voice-engine CPU and wall time per stage of a 5 s sample (bench/voice.ts); writes
 *    reports/bench-voice.{md,json}.
 *
 * All run by default; `--only` picks one.
 *
 * `soak` instead runs the server for `--minutes` (default 10) at saturation with a mix of face
 * requests and samples its memory (bench/soak.ts); writes reports/bench-soak.{md,json,svg}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { machineDescription } from './machine.js';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { UsageRecorder } from '../src/server/usage/usage-recorder.js';
import { startServer } from '../test/helpers/process.js';
import { benchCompare, compareBenchTable, writeCompareReport } from './compare.js';
import { detectorOption, DETECTOR_OPTION } from '../eval/detector-option.js';
import { benchDocument, documentBenchTable, writeDocumentBenchReport } from './document.js';
import { benchFace, faceBenchTable, writeFaceBenchReport } from './face.js';
import { benchMatching, formatMatchingTable, writeMatchingReport } from './matching.js';
import { benchSoak, soakTable, writeSoakReport } from './soak.js';
import { benchVoice, voiceBenchTable, writeVoiceBenchReport } from './voice.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    requests: { type: 'string', default: '120' },
    minutes: { type: 'string', default: '10' },
    ...DETECTOR_OPTION,
  },
});
const mode = positionals[0];
if (mode !== undefined && (mode !== 'soak' || positionals.length > 1))
  throw new Error(`the only mode is 'soak' (got '${positionals.join(' ')}')`);
const only = values.only;
const SECTIONS = ['server', 'matching', 'face', 'compare', 'document', 'voice'];
if (only !== undefined && !SECTIONS.includes(only))
  throw new Error(`--only takes one of ${SECTIONS.join(', ')} (got '${only}')`);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const detector = detectorOption(values.detector);
// The servers the compare and soak benches start inherit this process's environment.
process.env.VERIPORT_FACE_DETECTOR = detector;
const PATH = '/face-matching/version';

interface Round {
  counting: boolean;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function measure(url: string, counting: boolean): Promise<Round> {
  const result = await autocannon({ url: `${url}${PATH}`, connections, duration: seconds });
  return {
    counting,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function recordCost(): number {
  const usage = new UsageRecorder({
    repository: {
      addCounts: () => Promise.resolve(),
      list: () => Promise.resolve([]),
      reset: () => Promise.resolve(0),
    },
    flushIntervalMs: 1000,
    log: console,
  });
  const calls = 1_000_000;
  const endpoints = ['/version', '/compare', '/identify/{cacheName}', '/verify/{cacheName}'];
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i += 1)
    usage.record('face-matching', endpoints[i % endpoints.length] ?? '/version', 'acme');
  return Number(process.hrtime.bigint() - start) / calls;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

async function benchServer(): Promise<void> {
  // Request logs off (warn): at info every request writes two JSON lines, which would dominate.
  const env = { VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'warn' };
  const withCounting = await startServer({ ...env, VERIPORT_USAGE_COUNTING: 'true' });
  const withoutCounting = await startServer({ ...env, VERIPORT_USAGE_COUNTING: 'false' });
  const results: Round[] = [];
  try {
    // Warm both, then alternate so drift (CPU frequency, GC, other load) hits both sides alike.
    await autocannon({ url: `${withCounting.url}${PATH}`, connections, duration: 1 });
    await autocannon({ url: `${withoutCounting.url}${PATH}`, connections, duration: 1 });
    for (let round = 0; round < rounds; round += 1) {
      results.push(await measure(withCounting.url, true));
      results.push(await measure(withoutCounting.url, false));
    }
  } finally {
    await Promise.all([withCounting.stop(), withoutCounting.stop()]);
  }
  const on = results.filter((r) => r.counting);
  const off = results.filter((r) => !r.counting);
  const ratio = mean(on.map((r) => r.requestsPerSecond)) / mean(off.map((r) => r.requestsPerSecond));
  const nsPerRecord = recordCost();

  const machine = machineDescription();
  const rows = [
    [
      'counting on',
      mean(on.map((r) => r.requestsPerSecond)),
      mean(on.map((r) => r.p50Ms)),
      mean(on.map((r) => r.p99Ms)),
      on.reduce((a, r) => a + r.errors, 0),
    ],
    [
      'counting off',
      mean(off.map((r) => r.requestsPerSecond)),
      mean(off.map((r) => r.p50Ms)),
      mean(off.map((r) => r.p99Ms)),
      off.reduce((a, r) => a + r.errors, 0),
    ],
  ] as const;
  const table = [
    `Throughput of GET ${PATH} (${connections} connections, ${rounds} alternating rounds of ${seconds} s; server and load generator share ${machine})`,
    '',
    '| server | req/s (mean) | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([name, rps, p50, p99, errors]) =>
        `| ${name} | ${rps.toFixed(0)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${errors} |`,
    ),
    '',
    `Throughput ratio counting on / off: **${ratio.toFixed(3)}** (counter overhead ${((1 - ratio) * 100).toFixed(1)}%)`,
    `UsageRecorder.record: ${nsPerRecord.toFixed(0)} ns per call (1,000,000 calls, in-process)`,
    '',
    'Per round (req/s): ' +
      results.map((r) => `${r.counting ? 'on' : 'off'} ${r.requestsPerSecond.toFixed(0)}`).join(', '),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-server.md',
    `# Server benchmark\n\nCommand: \`npm run bench -- --seconds ${seconds} --connections ${connections} --rounds ${rounds}\`\n\n${table}\n`,
  );
  writeFileSync(
    'reports/bench-server.json',
    `${JSON.stringify({ date: new Date().toISOString(), machine, seconds, connections, rounds, ratio, nsPerRecord, results }, null, 2)}\n`,
  );
}

async function main(): Promise<void> {
  if (mode === 'soak') {
    const minutes = Number(values.minutes);
    if (!(minutes > 0)) throw new Error(`--minutes must be a positive number (got '${values.minutes}')`);
    const result = await benchSoak({ minutes });
    process.stdout.write(soakTable(result));
    writeSoakReport(result, `npm run bench -- soak --minutes ${values.minutes}`);
    return;
  }
  if (only === undefined || only === 'server') await benchServer();
  if (only === undefined || only === 'matching') {
    if (only === undefined) process.stdout.write('\n');
    const result = await benchMatching();
    process.stdout.write(formatMatchingTable(result));
    writeMatchingReport(result, only === 'matching' ? 'npm run bench -- --only matching' : 'npm run bench');
  }
  if (only === undefined || only === 'face') {
    const rows = await benchFace(5, detector);
    process.stdout.write(`\n${faceBenchTable(rows)}\n`);
    writeFaceBenchReport(rows);
  }
  if (only === undefined || only === 'compare') {
    const result = await benchCompare({ requests: Number(values.requests) });
    process.stdout.write(`\n${compareBenchTable(result)}`);
    const args = [
      only === undefined ? '' : ' --only compare',
      values.requests === '120' ? '' : ` --requests ${values.requests}`,
    ];
    writeCompareReport(result, `npm run bench${args.join('') === '' ? '' : ` --${args.join('')}`}`);
  }
  if (only === undefined || only === 'document') {
    const result = await benchDocument();
    process.stdout.write(`\n${documentBenchTable(result)}`);
    writeDocumentBenchReport(result, only === 'document' ? 'npm run bench -- --only document' : 'npm run bench');
  }
  if (only === undefined || only === 'voice') {
    const result = await benchVoice();
    process.stdout.write(`\n${voiceBenchTable(result)}\n`);
    writeVoiceBenchReport(result);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
