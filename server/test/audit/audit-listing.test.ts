import { timestampFromMs, timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, createClient } from '@connectrpc/connect';
import { TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore } from '../../src/storage/audit/audit-store.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DIALECTS } from '../support/test-storage.js';
import { auditClient, bearer, codeOf, issue } from './audit-support.js';

const DAY = 86_400_000;

describe.each(DIALECTS)('ListAuditRecords on %s', (dialect) => {
  let t: TestServer;
  let admin: { token: string; subject: string };
  let operator: { token: string; subject: string };
  let otherAdmin: { token: string; subject: string };
  let audit: ReturnType<typeof auditClient>;

  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_AUDIT_RETENTION_DAYS: '30' });
    admin = await issue(t, 'default', 'admin');
    operator = await issue(t, 'default', 'operator');
    otherAdmin = await issue(t, 'other', 'admin');
    audit = auditClient(t.grpc, bearer(admin.token));
    const put = (token: string, key: string) =>
      createClient(TreeDataService, t.grpc).putEntry(
        { treeId: 'orders', key, valueJson: '1' },
        { headers: bearer(token) },
      );
    for (let i = 0; i < 5; i++) await put(admin.token, `a${i}`);
    for (let i = 0; i < 3; i++) await put(operator.token, `o${i}`);
    await put(otherAdmin.token, 'x');
    // Refusals: one with no tenant at all (anonymous), one of the operator.
    await codeOf(createClient(TreeDataService, t.grpc).listTrees({}));
    await codeOf(auditClient(t.grpc, bearer(operator.token)).list());
    await t.server.audit.flush();
  });
  afterAll(async () => t?.dispose());

  it('pages newest first with keyset tokens: every record once, whatever the page size', async () => {
    const whole = await audit.all({}, 1000);
    const paged = await audit.all({}, 2);
    expect(paged.map((r) => r.recordId)).toEqual(whole.map((r) => r.recordId));
    expect(new Set(whole.map((r) => r.recordId)).size).toBe(whole.length);
    const times = whole.map((r) => timestampMs(r.time!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const first = await audit.list({ pageSize: 3 });
    expect(first.records).toHaveLength(3);
    expect(first.nextPageToken).not.toBe('');
  });

  it('filters by subject, method, outcome and time', async () => {
    const byOperator = await audit.all({ subject: operator.subject });
    expect(byOperator.map((r) => r.method).sort()).toEqual([
      'ListAuditRecords',
      'PutEntry',
      'PutEntry',
      'PutEntry',
    ]);
    const puts = await audit.all({ method: 'PutEntry' });
    expect(puts).toHaveLength(8);
    const denied = await audit.all({ outcome: 'PERMISSION_DENIED' });
    // Newest first. The anonymous call is the authorizer's no (PermissionDenied, spec 001 rule 3)
    // and names no tenant: the bootstrap tenant's admins see such unscoped records too.
    expect(denied.map((r) => [r.subject, r.method])).toEqual([
      [operator.subject, 'ListAuditRecords'],
      ['anonymous', 'ListTrees'],
    ]);
    const all = await audit.all();
    const middle = timestampMs(all[4]!.time!);
    const since = await audit.all({ since: timestampFromMs(middle) });
    const until = await audit.all({ until: timestampFromMs(middle) });
    expect(since.every((r) => timestampMs(r.time!) >= middle)).toBe(true);
    expect(until.every((r) => timestampMs(r.time!) < middle)).toBe(true);
    expect(since.length + until.length).toBe(all.length);
    expect(await audit.all({ method: 'DeleteBackup' })).toEqual([]);
  });

  it('is admin only: viewer and operator are PermissionDenied', async () => {
    const viewer = await issue(t, 'default', 'viewer');
    for (const caller of [viewer, operator]) {
      expect(await codeOf(auditClient(t.grpc, bearer(caller.token)).list())).toBe(
        Code.PermissionDenied,
      );
    }
  });

  it("a tenant's admin sees only that tenant; refusals that named no tenant go to the bootstrap tenant's admins", async () => {
    const mine = await audit.all();
    expect(new Set(mine.map((r) => r.tenantId))).toEqual(new Set(['default', '']));
    expect(mine.some((r) => r.subject === otherAdmin.subject)).toBe(false);
    const theirs = await auditClient(t.grpc, bearer(otherAdmin.token)).all();
    expect(theirs.map((r) => [r.tenantId, r.subject, r.method])).toEqual([
      ['other', otherAdmin.subject, 'PutEntry'],
    ]);
  });

  it('answers InvalidArgument for a page token it did not issue, an inverted range, a huge page', async () => {
    for (const request of [
      { pageToken: 'bm9wZQ' },
      { since: timestampFromMs(2000), until: timestampFromMs(1000) },
      { pageSize: 1001 },
    ]) {
      expect(await codeOf(audit.list(request))).toBe(Code.InvalidArgument);
    }
  });

  it('deletes records past STORE_AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const now = Date.now();
    const store = new AuditStore(t.server.storage);
    const old = (id: string, at: number) => ({
      id,
      at,
      tenant: 'default',
      subject: 'old',
      service: 'store.data.v1.TreeDataService',
      method: 'PutEntry',
      targetId: null,
      outcome: 'OK',
      clientAddress: '127.0.0.1',
      detail: '',
    });
    await store.insert([
      old('00000000-0000-4000-8000-000000000031', now - 31 * DAY),
      old('00000000-0000-4000-8000-000000000029', now - 29 * DAY),
    ]);
    const before = await audit.all();
    expect(await t.server.audit.sweep()).toBe(1);
    const after = await audit.all();
    expect(before.length - after.length).toBe(1);
    expect(after.filter((r) => r.subject === 'old').map((r) => r.recordId)).toEqual([
      '00000000-0000-4000-8000-000000000029',
    ]);
  });
});
