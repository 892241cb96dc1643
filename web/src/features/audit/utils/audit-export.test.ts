import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  AuditRecordSchema,
  ListAuditRecordsResponseSchema,
  type ListAuditRecordsRequest,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import {
  auditCsv,
  auditJsonLines,
  csvField,
  exportFileName,
  fetchAllAuditRecords,
  resolveSubjectNames,
} from './audit-export';

const record = (id: string, init: Partial<Parameters<typeof create>[1]> = {}) =>
  create(AuditRecordSchema, {
    recordId: id,
    time: timestampFromMs(Date.UTC(2026, 4, 1, 12)),
    subject: 'token:t-1',
    service: 'store.schema.v1.SchemaControlService',
    method: 'StartAdvanceAndMigrate',
    targetId: 'orders',
    outcome: 'PERMISSION_DENIED',
    detail: 'needs operator, "really"',
    ...init,
  });

describe('fetchAllAuditRecords', () => {
  it('pages through every matching record with the filters, not only the loaded page', async () => {
    const seen: Partial<ListAuditRecordsRequest>[] = [];
    const pages = [
      { records: [record('r1'), record('r2')], nextPageToken: 'p2' },
      { records: [record('r3')], nextPageToken: '' },
    ];
    const counts: number[] = [];
    const records = await fetchAllAuditRecords(
      (request) => {
        seen.push(request as Partial<ListAuditRecordsRequest>);
        return Promise.resolve(create(ListAuditRecordsResponseSchema, pages[seen.length - 1]));
      },
      { subject: 'token:t-1', method: '', outcome: 'OK', since: '', until: '' },
      (count) => counts.push(count),
    );
    expect(records.map((r) => r.recordId)).toEqual(['r1', 'r2', 'r3']);
    expect(seen.map((r) => r.pageToken)).toEqual(['', 'p2']);
    expect(seen[1]).toMatchObject({ subject: 'token:t-1', outcome: 'OK', pageSize: 1000 });
    expect(counts).toEqual([2, 3]);
  });
});

describe('audit export formats', () => {
  it('writes CSV with a header, quoted fields and words beside the raw values', () => {
    const csv = auditCsv([record('r1'), record('r2', { detail: '=HYPERLINK("x")' })]);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time,recordId,tenant,subject,subjectName,service,method,action,target,targetName,outcome,outcomeWords,clientAddress,detail',
    );
    expect(lines[1]).toContain(',StartAdvanceAndMigrate,Advance and migrate,orders,,');
    expect(lines[1]).toContain(',PERMISSION_DENIED,');
    expect(lines[1]?.endsWith(',"needs operator, ""really"""')).toBe(true);
    // A formula is kept as text.
    expect(lines[2]?.endsWith(`,"'=HYPERLINK(""x"")"`)).toBe(true);
  });

  it('names each subject as a person beside the raw subject, resolved 200 at a time', async () => {
    const records = [
      record('r1'),
      record('r2', { subject: 'scheduler' }),
      ...Array.from({ length: 250 }, (_, i) => record(`x${i}`, { subject: `token:x-${i}` })),
    ];
    const asked: string[][] = [];
    const names = await resolveSubjectNames((subjects) => {
      asked.push(subjects);
      return Promise.resolve(
        subjects.map((subject) => ({
          subject,
          displayName: subject === 'token:t-1' ? 'Release bot' : `name of ${subject}`,
        })),
      );
    }, records);
    expect(asked.map((batch) => batch.length)).toEqual([200, 52]);
    const lines = auditCsv(records, names).trimEnd().split('\r\n');
    expect(lines[1]).toContain(',token:t-1,Release bot,');
    expect(lines[2]).toContain(',scheduler,name of scheduler,');
    expect(JSON.parse(auditJsonLines([record('r1')], names))).toMatchObject({
      subject: 'token:t-1',
      subjectName: 'Release bot',
    });
  });

  it('names a target the server named (targetName beside the raw target id); others stay empty', () => {
    const deleted = record('r1', {
      service: 'store.backup.v1.BackupControlService',
      method: 'DeleteBackup',
      targetId: 'b-7f3a',
      targetName: 'full ledger',
    });
    const lines = auditCsv([deleted, record('r2')])
      .trimEnd()
      .split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.indexOf('targetName')).toBe(header.indexOf('target') + 1);
    expect(lines[1]).toContain(',DeleteBackup,Delete backup,b-7f3a,full ledger,');
    expect(lines[2]).toContain(',Advance and migrate,orders,,PERMISSION_DENIED,');
    const [named, unnamed] = auditJsonLines([deleted, record('r2')])
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(named).toMatchObject({ target: 'b-7f3a', targetName: 'full ledger' });
    expect(unnamed).toMatchObject({ target: 'orders', targetName: '' });
  });

  it('a server that cannot name subjects leaves the name column empty, the export still made', async () => {
    const names = await resolveSubjectNames(
      () => Promise.reject(new Error('unimplemented')),
      [record('r1')],
    );
    expect(auditCsv([record('r1')], names).split('\r\n')[1]).toContain(',token:t-1,,');
  });

  it('writes one JSON object per line', () => {
    const lines = auditJsonLines([record('r1'), record('r2')])
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      recordId: 'r1',
      method: 'StartAdvanceAndMigrate',
      action: 'Advance and migrate',
      time: '2026-05-01T12:00:00.000Z',
    });
  });

  it('names the file after the tenant and the day', () => {
    expect(exportFileName('acme', 'jsonl', new Date(Date.UTC(2026, 4, 1)))).toBe(
      'audit-acme-2026-05-01.jsonl',
    );
  });
});

describe('the CSV formula guard (OWASP, CSV Injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
  ])('a cell starting %j is kept as text: %j', (value, cell) => {
    expect(csvField(value)).toBe(cell);
  });

  it('leaves other cells as they are, quoting only what RFC 4180 asks', () => {
    expect(csvField('orders')).toBe('orders');
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField('a,b')).toBe('"a,b"');
  });
});
