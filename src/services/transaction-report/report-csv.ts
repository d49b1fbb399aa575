import type { UsageCount, UsageFilter } from '../../store/usage-counters.js';

export const REPORT_CSV_HEADER = 'server_name,year,month,endpoint,counter';

/**
 * Renders counters as the spec's CSV: header `server_name,year,month,endpoint,counter`, one row per
 * server, year, month and endpoint, CRLF line ends (RFC 4180).
 *
 * @example
 * reportCsv([{ serverName: 'face-matching', year: 2026, month: 11, endpoint: '/version', counter: 2 }]);
 * // 'server_name,year,month,endpoint,counter\r\nface-matching,2026,11,/version,2\r\n'
 */
export function reportCsv(rows: readonly UsageCount[]): string {
  const lines = rows.map((r) =>
    [r.serverName, String(r.year), String(r.month), r.endpoint, String(r.counter)].map(csvField).join(','),
  );
  return [REPORT_CSV_HEADER, ...lines].map((line) => `${line}\r\n`).join('');
}

/**
 * The download name of a report, e.g. `veriport-usage-face-matching-2026-11.csv` or `veriport-usage-all-all-all.csv`.
 *
 * @example
 * reportFileName({ year: 2026 }); // 'veriport-usage-all-2026-all.csv'
 */
export function reportFileName(filter: UsageFilter): string {
  const month = filter.month === undefined ? 'all' : String(filter.month).padStart(2, '0');
  return `veriport-usage-${filter.serverName ?? 'all'}-${filter.year ?? 'all'}-${month}.csv`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
