import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminConfirmation } from '../../../../src/server/admin-confirmation.js';
import {
  REPORT_CSV_HEADER,
  reportCsv,
  reportFileName,
} from '../../../../src/services/transaction-report/report-csv.js';
import { reportFilter } from '../../../../src/services/transaction-report/report-filter.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';

const servers = ['face-matching', 'transaction-report'];
const apiError = (status: number, code: number) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === status && error.code === code;

describe('reportCsv', () => {
  it('writes the spec header and one CRLF row per counter', () => {
    const csv = reportCsv([
      { serverName: 'face-matching', year: 2026, month: 11, endpoint: '/identify/{cacheName}', counter: 12 },
      { serverName: 'face-matching', year: 2026, month: 11, endpoint: '/version', counter: 1 },
    ]);
    assert.equal(
      csv,
      `${REPORT_CSV_HEADER}\r\nface-matching,2026,11,/identify/{cacheName},12\r\nface-matching,2026,11,/version,1\r\n`,
    );
    assert.equal(reportCsv([]), 'server_name,year,month,endpoint,counter\r\n');
  });
  it('quotes fields holding commas or quotes', () => {
    const csv = reportCsv([{ serverName: 's', year: 2026, month: 1, endpoint: '/a,"b"', counter: 1 }]);
    assert.match(csv, /s,2026,1,"\/a,""b""",1/);
  });
  it('names the download after the filter', () => {
    assert.equal(
      reportFileName({ serverName: 'face-matching', year: 2026, month: 3 }),
      'veriport-usage-face-matching-2026-03.csv',
    );
    assert.equal(reportFileName({}), 'veriport-usage-all-all-all.csv');
  });
});

describe('reportFilter', () => {
  it('reads 0 and absent as "all"', () => {
    assert.deepEqual(reportFilter({ server: 'face-matching', year: 0, month: 0 }, servers), {
      serverName: 'face-matching',
      year: undefined,
      month: undefined,
    });
    assert.deepEqual(reportFilter({ year: 2026 }, servers), { serverName: undefined, year: 2026, month: undefined });
    assert.deepEqual(reportFilter({ year: 0, month: 7 }, servers), {
      serverName: undefined,
      year: undefined,
      month: 7,
    });
  });
  it('rejects unknown servers and out-of-range periods with -6', () => {
    assert.throws(() => reportFilter({ server: 'nope' }, servers), apiError(400, -6));
    assert.throws(() => reportFilter({ year: 1969 }, servers), apiError(400, -6));
    assert.throws(() => reportFilter({ year: 10000 }, servers), apiError(400, -6));
    assert.throws(() => reportFilter({ year: 2026, month: 13 }, servers), apiError(400, -6));
  });
});

describe('adminConfirmation', () => {
  it('is disabled without a configured code', async () => {
    await assert.rejects(adminConfirmation({ code: undefined }).check(1, 'reset'), apiError(403, 403));
  });
  it('accepts only the configured code', async () => {
    const confirmation = adminConfirmation({ code: 480213 });
    await assert.rejects(confirmation.check(1, 'reset'), apiError(400, -6));
    await assert.doesNotReject(confirmation.check(480213, 'reset'));
  });
  it('refuses everything for the rest of the window after too many wrong codes', async () => {
    let now = 0;
    const confirmation = adminConfirmation({ code: 480213, maxFailures: 3, windowMs: 1000, now: () => now });
    for (let i = 0; i < 3; i += 1) await assert.rejects(confirmation.check(i, 'reset'), apiError(400, -6));
    await assert.rejects(confirmation.check(480213, 'reset'), apiError(429, 429));
    now = 1000;
    await assert.doesNotReject(confirmation.check(480213, 'reset'));
  });
  it('does not count right codes against the budget', async () => {
    const confirmation = adminConfirmation({ code: 480213, maxFailures: 2, now: () => 0 });
    for (let i = 0; i < 5; i += 1) await confirmation.check(480213, 'reset');
    await assert.rejects(confirmation.check(1, 'reset'), apiError(400, -6));
    await assert.rejects(confirmation.check(2, 'reset'), apiError(400, -6));
    await assert.rejects(confirmation.check(3, 'reset'), apiError(429, 429));
  });
  it('lets no more than the budget of concurrent wrong codes be compared', async () => {
    const confirmation = adminConfirmation({ code: 480213, maxFailures: 3 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => confirmation.check(i, 'reset')));
    const statuses = results.map((r) =>
      r.status === 'rejected' && r.reason instanceof ApiError ? r.reason.statusCode : 0,
    );
    assert.equal(statuses.filter((status) => status === 400).length, 3);
    assert.equal(statuses.filter((status) => status === 429).length, 7);
  });
});
