import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AuditRecord, ListAuditRecordsResponse } from '@store/contract';
import { rpcMethodWords, statusCodeWords } from '../../../lib/words';
import { auditRequestOf, type AuditFilters } from './audit-filters';

/** The server's largest page: an export reads the filtered trail in as few requests as it can. */
const EXPORT_PAGE_SIZE = 1_000;

export type AuditExportFormat = 'csv' | 'jsonl';

type ListPage = (request: ReturnType<typeof auditRequestOf>) => Promise<ListAuditRecordsResponse>;

/**
 * Every record matching the filters, newest first, through every page (not only the pages the
 * table has loaded). `onPage` reports the running count, so a long export shows it moves.
 */
export async function fetchAllAuditRecords(
  listPage: ListPage,
  filters: AuditFilters,
  onPage?: (count: number) => void,
): Promise<AuditRecord[]> {
  const request = { ...auditRequestOf(filters), pageSize: EXPORT_PAGE_SIZE };
  const records: AuditRecord[] = [];
  let pageToken = '';
  do {
    const page = await listPage({ ...request, pageToken });
    records.push(...page.records);
    onPage?.(records.length);
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return records;
}

/** One record as an export row: raw values for machines, words beside them for people. */
function exportRow(record: AuditRecord) {
  return {
    time: record.time ? timestampDate(record.time).toISOString() : '',
    recordId: record.recordId,
    tenant: record.tenantId,
    subject: record.subject,
    service: record.service,
    method: record.method,
    action: rpcMethodWords(record.method).words,
    target: record.targetId ?? '',
    outcome: record.outcome,
    outcomeWords: statusCodeWords(record.outcome).words,
    clientAddress: record.clientAddress,
    detail: record.detail,
  };
}

const CSV_COLUMNS: readonly (keyof ReturnType<typeof exportRow>)[] = [
  'time',
  'recordId',
  'tenant',
  'subject',
  'service',
  'method',
  'action',
  'target',
  'outcome',
  'outcomeWords',
  'clientAddress',
  'detail',
];

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function csvField(value: string): string {
  // A leading = + - @ would be a formula to a spreadsheet: a quote mark keeps it text.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function auditCsv(records: readonly AuditRecord[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const record of records) {
    const row = exportRow(record);
    lines.push(CSV_COLUMNS.map((column) => csvField(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function auditJsonLines(records: readonly AuditRecord[]): string {
  return records.map((record) => `${JSON.stringify(exportRow(record))}\n`).join('');
}

/** "audit-acme-2026-05-01.csv": the tenant and the day of the export. */
export function exportFileName(
  tenant: string,
  format: AuditExportFormat,
  now = new Date(),
): string {
  const day = now.toISOString().slice(0, 10);
  const safeTenant = tenant.replace(/[^A-Za-z0-9._-]/g, '_');
  return `audit-${safeTenant}-${day}.${format}`;
}
