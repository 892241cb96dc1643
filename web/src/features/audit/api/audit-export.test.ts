import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  AuditRecordSchema,
  ListAuditRecordsResponseSchema,
  type ListAuditRecordsRequest,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { auditCsv, auditJsonLines, exportFileName, fetchAllAuditRecords } from './audit-export';

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
      'time,recordId,tenant,subject,service,method,action,target,outcome,outcomeWords,clientAddress,detail',
    );
    expect(lines[1]).toContain(',StartAdvanceAndMigrate,Advance and migrate,orders,');
    expect(lines[1]).toContain(',PERMISSION_DENIED,');
    expect(lines[1]?.endsWith(',"needs operator, ""really"""')).toBe(true);
    // A formula is kept as text.
    expect(lines[2]?.endsWith(`,"'=HYPERLINK(""x"")"`)).toBe(true);
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
