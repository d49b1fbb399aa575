import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { usageReport, type UsageCounters } from '../../../../src/services/transaction-report/usage-reports.js';
import type { UsageFilter, UsageIncrement } from '../../../../src/store/usage-counters.js';

/** Counters of three customers in memory, filtered and summed as the store does. */
function fakeCounters(): UsageCounters {
  const rows: UsageIncrement[] = [
    { customer: 'acme', serverName: 'face-matching', year: 2026, month: 11, endpoint: '/compare', counter: 3 },
    { customer: 'globex', serverName: 'face-matching', year: 2026, month: 11, endpoint: '/compare', counter: 4 },
    { customer: '', serverName: 'face-matching', year: 2026, month: 11, endpoint: '/compare', counter: 5 },
    { customer: 'globex', serverName: 'face-liveness', year: 2026, month: 11, endpoint: '/checkLiveness', counter: 1 },
  ];
  const matches = (r: UsageIncrement, f: UsageFilter) =>
    (f.customer === undefined || r.customer === f.customer) &&
    (f.serverName === undefined || r.serverName === f.serverName) &&
    (f.year === undefined || r.year === f.year) &&
    (f.month === undefined || r.month === f.month);
  return {
    flush: () => Promise.resolve(),
    repository: {
      addCounts: () => Promise.resolve(),
      reset: () => Promise.resolve(0),
      list(filter) {
        const sums = new Map<string, UsageIncrement>();
        for (const r of rows.filter((row) => matches(row, filter))) {
          const key = `${r.serverName} ${r.endpoint}`;
          sums.set(key, { ...r, counter: (sums.get(key)?.counter ?? 0) + r.counter });
        }
        return Promise.resolve(
          [...sums.values()].map(({ serverName, year, month, endpoint, counter }) => ({
            serverName,
            year,
            month,
            endpoint,
            counter,
          })),
        );
      },
    },
  };
}

const lines = (csv: string) => csv.trimEnd().split('\r\n').slice(1);

describe('usage reports per caller', () => {
  it("reports a customer's own calls only, whatever it asks for by path", async () => {
    const acme = { customer: 'acme', adminAccess: false };
    assert.deepEqual(lines((await usageReport(fakeCounters(), {}, acme)).csv), ['face-matching,2026,11,/compare,3']);
    assert.deepEqual(lines((await usageReport(fakeCounters(), { server: 'face-liveness' }, acme)).csv), []);
    assert.deepEqual(lines((await usageReport(fakeCounters(), {}, acme, 'acme')).csv), [
      'face-matching,2026,11,/compare,3',
    ]);
  });

  it("refuses a customer's call asking for another customer's counters (403)", async () => {
    for (const asked of ['globex', ''])
      await assert.rejects(
        usageReport(fakeCounters(), {}, { customer: 'acme', adminAccess: false }, asked),
        (error: unknown) => error instanceof ApiError && error.statusCode === 403,
      );
  });

  it("reports every customer's calls summed to an admin call, or the customer it asks for", async () => {
    const admin = { customer: '', adminAccess: true };
    assert.deepEqual(lines((await usageReport(fakeCounters(), {}, admin)).csv), [
      'face-matching,2026,11,/compare,12',
      'face-liveness,2026,11,/checkLiveness,1',
    ]);
    assert.deepEqual(lines((await usageReport(fakeCounters(), {}, admin, 'globex')).csv), [
      'face-matching,2026,11,/compare,4',
      'face-liveness,2026,11,/checkLiveness,1',
    ]);
    assert.deepEqual(lines((await usageReport(fakeCounters(), {}, admin, '')).csv), [
      'face-matching,2026,11,/compare,5',
    ]);
  });
});
