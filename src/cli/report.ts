import { reportCsv } from '../services/transaction-report/report-csv.js';
import { reportFilter } from '../services/transaction-report/report-filter.js';
import type { VeriportConfig } from '../server/config.js';
import { SERVICE_NAMES } from '../server/service-definition.js';
import { openStore } from '../store/database.js';
import { usageCountersRepository } from '../store/usage-counters.js';

export interface ReportOptions {
  server?: string | undefined;
  year?: number | undefined;
  month?: number | undefined;
  /** Base URL of a running server; when set the CSV is fetched from its transaction-report service. */
  url?: string | undefined;
  /** Sent as the `apikey` header with `url` (VERIPORT_API_KEY): the admin key, or a customer's for its own. */
  apiKey?: string | undefined;
}

/**
 * The usage report as CSV, the same as `GET /transaction-report/serverReport|fullReport`. Reads the
 * store directly, or a running server with `url` (needed with embedded PGlite while the server runs,
 * since only one process may open a PGlite directory).
 *
 * @example
 * process.stdout.write(await usageReport(config, { year: 2026, month: 11 }));
 */
export async function usageReport(config: VeriportConfig, options: ReportOptions): Promise<string> {
  if (options.url !== undefined) return fetchReport(options);
  const filter = reportFilter(options, SERVICE_NAMES);
  const store =
    config.databaseUrl === undefined
      ? await openStore({ kind: 'pglite', dataDir: config.dataDir })
      : await openStore({ kind: 'postgres', url: config.databaseUrl, schema: config.databaseSchema, poolSize: 1 });
  try {
    return reportCsv(await usageCountersRepository(store.db).list(filter));
  } finally {
    await store.close();
  }
}

async function fetchReport(options: ReportOptions): Promise<string> {
  const period = `${options.year ?? 0}/${options.month ?? 0}`;
  const path =
    options.server === undefined
      ? `fullReport/${period}`
      : `serverReport/${encodeURIComponent(options.server)}/${period}`;
  const headers: Record<string, string> = options.apiKey === undefined ? {} : { apikey: options.apiKey };
  const response = await fetch(new URL(`/transaction-report/${path}`, options.url), { headers });
  const body = await response.text();
  if (!response.ok) throw new Error(`report request failed with HTTP ${response.status}: ${body}`);
  return body;
}
