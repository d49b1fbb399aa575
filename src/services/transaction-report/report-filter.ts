import { invalidValue } from '../../server/errors/api-error.js';
import type { UsageFilter } from '../../store/usage-counters.js';

/** Path parameters of the report and reset calls; year and month may be left out. */
export interface ReportPathParams {
  server?: string | undefined;
  year?: number | undefined;
  month?: number | undefined;
}

/**
 * Turns the path's server, year and month into a filter. A year or month that is left out of the
 * path, or given as 0, means "all" (docs/decisions.md).
 *
 * @example
 * reportFilter({ server: 'face-matching', year: 2026, month: 0 }, names);
 * // { serverName: 'face-matching', year: 2026, month: undefined }
 * @throws {ApiError} -6 for an unknown server, a year outside 1970-9999 or a month outside 1-12
 */
export function reportFilter(params: ReportPathParams, knownServers: readonly string[]): UsageFilter {
  const { server, year, month } = params;
  if (server !== undefined && !knownServers.includes(server)) {
    throw invalidValue(`unknown server '${server}'; servers are: ${knownServers.join(', ')}`);
  }
  if (year !== undefined && year !== 0 && (year < 1970 || year > 9999)) {
    throw invalidValue(`year must be from 1970 to 9999, or 0 for all years (got ${year})`);
  }
  if (month !== undefined && (month < 0 || month > 12)) {
    throw invalidValue(`month must be from 1 to 12, or 0 for all months (got ${month})`);
  }
  return {
    serverName: server,
    year: year === 0 ? undefined : year,
    month: month === 0 ? undefined : month,
  };
}
