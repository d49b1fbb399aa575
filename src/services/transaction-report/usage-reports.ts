import type { AdminConfirmation } from '../../server/admin-confirmation.js';
import { adminOnly } from '../../server/access/access-denied.js';
import { SERVICE_NAMES, type ServiceDependencies } from '../../server/service-definition.js';
import type { UsageFilter } from '../../store/usage-counters.js';
import { reportCsv, reportFileName } from './report-csv.js';
import { reportFilter, type ReportPathParams } from './report-filter.js';

/** The usage counters as the server holds them: the store's and this process's buffered ones. */
export type UsageCounters = ServiceDependencies['usage'];

/**
 * Who asks for a report: the customer scope of the call and whether it carried the operator's admin
 * credential (both true and '' with authentication off: src/server/access/customer-scope.ts).
 */
export interface ReportCaller {
  readonly customer: string;
  readonly adminAccess: boolean;
}

/** A CSV report and the name it downloads as. */
export interface UsageReport {
  readonly csv: string;
  readonly fileName: string;
}

/**
 * The monthly usage counters the path selects (one server or all; a year, a month or all), as CSV. A
 * customer's call reports its own calls only; an admin call reports every customer's, summed per server,
 * year, month and endpoint (the spec's columns), or one customer's when `customer` names it ('' for the
 * calls made without authentication).
 *
 * @example
 * const { csv, fileName } = await usageReport(deps.usage, { server: 'face-matching', year: 2026 }, caller);
 * @throws {ApiError} -6 for an unknown server, year or month ({@link reportFilter}); 403 for a customer's
 *   call asking for another customer's counters
 */
export async function usageReport(
  usage: UsageCounters,
  params: ReportPathParams,
  caller: ReportCaller,
  customer?: string,
): Promise<UsageReport> {
  const filter = { ...reportFilter(params, SERVICE_NAMES), customer: reportedCustomer(caller, customer) };
  // This process's pending counts first, so the report includes every call answered so far.
  await usage.flush();
  return { csv: reportCsv(await usage.repository.list(filter)), fileName: reportFileName(filter) };
}

/**
 * Resets the counters the path selects, every customer's (an admin call: the access hook refuses the
 * others), once `confirm` is the operator's code; what was removed.
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
  await confirmation.check(confirm, 'reset');
  // Write this process's pending counts first, so none of them reappear after the reset.
  await usage.flush();
  return { filter, removed: await usage.repository.reset(filter) };
}

/** Whose counters a report covers: the caller's own, or for an admin call the one asked for (all when none). */
function reportedCustomer(caller: ReportCaller, asked: string | undefined): string | undefined {
  if (caller.adminAccess) return asked;
  if (asked !== undefined && asked !== caller.customer) throw adminOnly("another customer's usage report");
  return caller.customer;
}
