/**
 * `npm run fuzz -- --count N [--seed S] [--only TEXT] [--out DIR]`: the long fuzz run (docs/fuzzing.md).
 * Sends N malformed requests, spread evenly over every operation of the app's OpenAPI document (those
 * whose key contains TEXT with --only), with bad images of every kind in every image field; prints the
 * count of answers per operation and status, and writes each failing request (5xx, a body not in the
 * service's error shape, a code outside the spec's set, a crash of inject) as a JSON case under
 * DIR (default reports/fuzz/seed-S/). Exits 1 when any request failed.
 *
 * `npm run fuzz -- --replay FILE` sends one stored case again to a fresh app and prints the answer.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { closeTestFaceEngine } from '../test/helpers/faces.js';
import { badImages } from './bad-images.js';
import { fuzzRequests, type FuzzRequest } from './requests.js';
import { send, startTarget, type FuzzTarget } from './target.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '14' },
    only: { type: 'string' },
    out: { type: 'string' },
    replay: { type: 'string' },
  },
});

/** A stored failing request: enough to send it again and to see what was wrong. */
interface FuzzCase {
  readonly operation: string;
  readonly seed: number;
  readonly failure: string;
  readonly answer: { readonly statusCode: number; readonly body: string };
  readonly request: FuzzRequest;
}

// Requests are generated in small batches, round-robin over the operations, so that any count covers
// every operation evenly and no more than one batch of large bodies is held at a time.
const BATCH = 10;

async function fuzz(target: FuzzTarget, count: number, seed: number, outDir: string): Promise<number> {
  const operations = target.operations.filter((o) => values.only === undefined || o.key.includes(values.only));
  if (operations.length === 0) throw new Error(`no operation matches --only ${values.only ?? ''}`);
  const counts = new Map(operations.map((o) => [o.key, new Map<string, number>()]));
  const arbitraries = operations.map((o) => fuzzRequests(o, target.context));
  let sent = 0;
  let failed = 0;
  const started = Date.now();
  for (let round = 0; sent < count; round++) {
    for (const [index, operation] of operations.entries()) {
      const arbitrary = arbitraries[index];
      if (arbitrary === undefined || sent >= count) continue;
      const numRuns = Math.min(BATCH, count - sent);
      const batchSeed = (seed * 1_000_003 + round * 7919 + index) | 0;
      for (const request of fc.sample(arbitrary, { seed: batchSeed, numRuns })) {
        const outcome = await send(target, operation, request);
        sent++;
        const status = outcome.failure === undefined ? String(outcome.statusCode) : `${outcome.statusCode}!`;
        const row = counts.get(operation.key);
        row?.set(status, (row.get(status) ?? 0) + 1);
        if (outcome.failure === undefined) continue;
        failed++;
        const file = join(outDir, `case-${String(failed).padStart(4, '0')}.json`);
        const stored: FuzzCase = {
          operation: operation.key,
          seed: batchSeed,
          failure: outcome.failure,
          answer: { statusCode: outcome.statusCode, body: outcome.body.slice(0, 4000) },
          request,
        };
        mkdirSync(outDir, { recursive: true });
        writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`);
        console.log(`FAIL ${operation.key}: ${outcome.failure} -> ${file}`);
      }
      if (sent % 1000 < numRuns) console.error(`... ${sent} requests, ${failed} failed`);
    }
  }
  printCounts(counts);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${sent} requests in ${seconds} s over ${operations.length} operations, seed ${seed}: ${failed} failed`,
  );
  if (failed > 0)
    console.log(`cases in ${outDir}; replay one: npm run fuzz -- --replay ${join(outDir, 'case-0001.json')}`);
  return failed;
}

/** One line per operation: its total and the count per status (`500!`: a status counted as a failure). */
function printCounts(counts: ReadonlyMap<string, ReadonlyMap<string, number>>): void {
  const width = Math.max(...[...counts.keys()].map((key) => key.length));
  console.log(`\n${'operation'.padEnd(width)}  total  answers by status`);
  for (const [key, statuses] of counts) {
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}:${n}`)
      .join(' ');
    console.log(`${key.padEnd(width)}  ${String(total).padStart(5)}  ${byStatus}`);
  }
}

/** A case file written by {@link fuzz}, checked for the members replay uses. */
function readCase(file: string): Pick<FuzzCase, 'operation' | 'request'> {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('operation' in parsed) || !('request' in parsed))
    throw new Error(`${file} is not a fuzz case`);
  const { operation, request } = parsed;
  if (typeof operation !== 'string' || typeof request !== 'object' || request === null)
    throw new Error(`${file} is not a fuzz case`);
  // The request was written by this tool; inject refuses what is not a request.
  return { operation, request: request as FuzzRequest };
}

async function replay(target: FuzzTarget, file: string): Promise<number> {
  const stored = readCase(file);
  const operation = target.operations.find((o) => o.key === stored.operation);
  if (operation === undefined) throw new Error(`no operation ${stored.operation} in this app`);
  const outcome = await send(target, operation, stored.request);
  console.log(`${stored.operation}: HTTP ${outcome.statusCode}\n${outcome.body.slice(0, 2000)}`);
  console.log(outcome.failure === undefined ? 'passes now' : `still fails: ${outcome.failure}`);
  return outcome.failure === undefined ? 0 : 1;
}

const seed = Number(values.seed);
const count = Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1)
  throw new Error('--count takes a positive integer, --seed an integer');
const images = await badImages({ large: true });
const target = await startTarget(images.all);
try {
  process.exitCode =
    values.replay === undefined
      ? (await fuzz(target, count, seed, values.out ?? join('reports', 'fuzz', `seed-${seed}`))) > 0
        ? 1
        : 0
      : await replay(target, values.replay);
} finally {
  await target.close();
  await closeTestFaceEngine();
}
