import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ListAuditRecordsRequestSchema } from '@store/contract';

/** The audit list's filters; they live in the URL so a link reproduces the view. */
export interface AuditFilters {
  subject: string;
  method: string;
  /** OK or a gRPC code name (PERMISSION_DENIED); empty for any. */
  outcome: string;
  /** Local calendar days, yyyy-mm-dd; both inclusive; empty for open. */
  since: string;
  until: string;
}

export const AUDIT_PAGE_SIZE = 50;

/** The outcomes the filter offers first: success and the two refusals the trail exists for. */
export const AUDIT_OUTCOMES = [
  'OK',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'FAILED_PRECONDITION',
  'ALREADY_EXISTS',
  'INTERNAL',
] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** ?subject=…&method=PutEntry&outcome=OK&since=2026-11-01&until=2026-11-24 → filters. */
export function auditFiltersFromSearch(params: URLSearchParams): AuditFilters {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) && localDayStart(value) !== undefined ? value : '';
  };
  const outcome = params.get('outcome') ?? '';
  return {
    subject: params.get('subject')?.trim() ?? '',
    method: params.get('method')?.trim() ?? '',
    outcome: /^[A-Z_]{1,32}$/.test(outcome) ? outcome : '',
    since: day('since'),
    until: day('until'),
  };
}

/** The inverse of auditFiltersFromSearch; empty filters are left out so links stay short. */
export function searchFromAuditFilters(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['subject', 'method', 'outcome', 'since', 'until'] as const) {
    if (filters[key]) params.set(key, filters[key]);
  }
  return params;
}

export function isFiltered(filters: AuditFilters): boolean {
  return Object.values(filters).some((value) => value !== '');
}

/** The ListAuditRecords request of one page; `until` covers the whole of its day. */
export function auditRequestOf(
  filters: AuditFilters,
): MessageInitShape<typeof ListAuditRecordsRequestSchema> {
  const since = filters.since ? localDayStart(filters.since) : undefined;
  const untilDay = filters.until ? localDayStart(filters.until) : undefined;
  const until = untilDay === undefined ? undefined : nextDay(untilDay);
  return {
    pageSize: AUDIT_PAGE_SIZE,
    subject: filters.subject,
    method: filters.method,
    outcome: filters.outcome,
    ...(since !== undefined && { since: timestampFromMs(since) }),
    ...(until !== undefined && { until: timestampFromMs(until) }),
  };
}

/** Midnight of a yyyy-mm-dd day in the reader's zone, or undefined when it is no real day. */
function localDayStart(day: string): number | undefined {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d
    ? date.getTime()
    : undefined;
}

function nextDay(start: number): number {
  const date = new Date(start);
  date.setDate(date.getDate() + 1);
  return date.getTime();
}
