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

/** The server's limit of subjects per ResolveSubjects call. */
const RESOLVE_BATCH = 200;

type Resolve = (subjects: string[]) => Promise<{ subject: string; displayName: string }[]>;

/**
 * People's names for the records' subjects (ResolveSubjects, 200 at a time): what the table's
 * "Who" column shows, so the export names people too. A server without the RPC, or one that
 * refuses it, leaves the names out (the raw subject column is always there).
 */
export async function resolveSubjectNames(
  resolve: Resolve,
  records: readonly AuditRecord[],
): Promise<ReadonlyMap<string, string>> {
  const subjects = [...new Set(records.map((r) => r.subject).filter((s) => s !== ''))];
  const names = new Map<string, string>();
  try {
    for (let i = 0; i < subjects.length; i += RESOLVE_BATCH) {
      for (const named of await resolve(subjects.slice(i, i + RESOLVE_BATCH))) {
        names.set(named.subject, named.displayName);
      }
    }
  } catch {
    return new Map();
  }
  return names;
}

/** One record as an export row: raw values for machines, words beside them for people. */
function exportRow(record: AuditRecord, names: ReadonlyMap<string, string>) {
  return {
    time: record.time ? timestampDate(record.time).toISOString() : '',
    recordId: record.recordId,
    tenant: record.tenantId,
    subject: record.subject,
    subjectName: names.get(record.subject) ?? '',
    service: record.service,
    method: record.method,
    action: rpcMethodWords(record.method).words,
    target: record.targetId ?? '',
    targetName: record.targetName ?? '',
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
  'subjectName',
  'service',
  'method',
  'action',
  'target',
  'targetName',
  'outcome',
  'outcomeWords',
  'clientAddress',
  'detail',
];

/**
 * A cell a spreadsheet would read as a formula: one starting with = + - @, tab or carriage return
 * (OWASP, "CSV Injection": a tab or CR before the = still makes a formula in some spreadsheets).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. A formula cell is
 * neutralised as OWASP advises: a leading single quote keeps it text.
 */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function auditCsv(
  records: readonly AuditRecord[],
  names: ReadonlyMap<string, string> = new Map(),
): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const record of records) {
    const row = exportRow(record, names);
    lines.push(CSV_COLUMNS.map((column) => csvField(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function auditJsonLines(
  records: readonly AuditRecord[],
  names: ReadonlyMap<string, string> = new Map(),
): string {
  return records.map((record) => `${JSON.stringify(exportRow(record, names))}\n`).join('');
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
