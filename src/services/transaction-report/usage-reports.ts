import type { AdminConfirmation } from '../../server/admin-confirmation.js';
import { SERVICE_NAMES, type ServiceDependencies } from '../../server/service-definition.js';
import type { UsageFilter } from '../../store/usage-counters.js';
import { reportCsv, reportFileName } from './report-csv.js';
import { reportFilter, type ReportPathParams } from './report-filter.js';

/** The usage counters as the server holds them: the store's and this process's buffered ones. */
export type UsageCounters = ServiceDependencies['usage'];

/** A CSV report and the name it downloads as. */
export interface UsageReport {
  readonly csv: string;
  readonly fileName: string;
}

/**
 * The monthly usage counters the path selects (one server or all; a year, a month or all), as CSV.
 *
 * @example
 * const { csv, fileName } = await usageReport(deps.usage, { server: 'face-matching', year: 2026 });
 * @throws {ApiError} -6 for an unknown server, year or month ({@link reportFilter})
 */
export async function usageReport(usage: UsageCounters, params: ReportPathParams): Promise<UsageReport> {
  const filter = reportFilter(params, SERVICE_NAMES);
  // This process's pending counts first, so the report includes every call answered so far.
  await usage.flush();
  return { csv: reportCsv(await usage.repository.list(filter)), fileName: reportFileName(filter) };
}

/**
 * Resets the counters the path selects, once `confirm` is the operator's code; what was removed.
 *
 * @example
 * const { removed } = await resetUsage(deps.usage, confirmation, { server: 'face-matching' }, body.confirm);
 * @throws {ApiError} -6 for a bad path or a wrong code, 403 when resets are disabled, 429 after repeated wrong codes
 */
export async function resetUsage(
  usage: UsageCounters,
  confirmation: AdminConfirmation,
  params: ReportPathParams,
  confirm: number,
): Promise<{ filter: UsageFilter; removed: number }> {
  const filter = reportFilter(params, SERVICE_NAMES);
  confirmation.check(confirm, 'reset');
  // Write this process's pending counts first, so none of them reappear after the reset.
  await usage.flush();
  return { filter, removed: await usage.repository.reset(filter) };
}
