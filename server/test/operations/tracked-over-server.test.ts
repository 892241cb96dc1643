// Issue 3, Operations: tracking-id idempotency and cancellation through the real server (both
// transports, both databases), not only through the runner.
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { BackupControlService, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  codeOf,
  startBackupServer,
  type BackupServer,
} from '../backup/backup-fixture.js';
import { seedTree } from '../support/schema-fixtures.js';
import { DIALECTS } from '../support/test-storage.js';
import { bearerInterceptor } from '../support/bearer.js';

describe.each(DIALECTS)('tracked operations through the server on %s', (dialect) => {
  let s: BackupServer;
  let overWeb: BackupServer['backup'];
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const withToken = bearerInterceptor(ADMIN_TOKEN);
    overWeb = createClient(
      BackupControlService,
      createGrpcWebTransport({
        baseUrl: s.t.server.httpUrl,
        httpVersion: '1.1',
        interceptors: [withToken],
      }),
    );
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('50 concurrent identical starts with one tracking id make one operation; another request with that id is AlreadyExists', async () => {
    await s.put('idem', { a: 1, b: 2 });
    const request = {
      name: 'nightly',
      scope: { treeId: 'idem' },
      trackingOperationId: 'nightly-2026-11-23',
    };
    // Half over native gRPC (h2c), half over gRPC-Web (HTTP/1.1), all at once.
    const handles = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? s.backup : overWeb).startBackup(request)),
    );
    const ids = new Set(handles.map((h) => h.operationId));
    expect(ids.size).toBe(1);
    const [operationId] = [...ids] as [string];
    const done = await s.finish(operationId);
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    // Progress in entries, with the bytes read in its message.
    // The total is counted before reading, so the console can show a percent and time left.
    expect(done.progress).toMatchObject({ done: 2n, total: 2n, unit: 'entries' });
    expect(done.progress?.message).toMatch(/^\d+ bytes read$/);
    const listed = await s.backup.listBackupOperations({ targetId: 'idem' });
    expect(listed.operations.map((o) => o.operationId)).toEqual([operationId]);
    expect((await s.backup.listBackups({ treeId: 'idem' })).backups).toHaveLength(1);

    // The same id with another request is refused, also after the first one finished.
    expect(await codeOf(s.backup.startBackup({ ...request, name: 'other name' }))).toBe(
      Code.AlreadyExists,
    );
    expect(
      await codeOf(s.backup.startBackup({ ...request, scope: { treeId: 'idem', keyPrefix: 'a' } })),
    ).toBe(Code.AlreadyExists);
    // The identical request still gets the same handle.
    expect((await overWeb.startBackup(request)).operationId).toBe(operationId);
  });

  it('cancelling a running capture ends it CANCELLED with nothing visible; a terminal operation never changes', async () => {
    await seedTree(
      s.t.server.storage,
      'default',
      'big',
      Array.from(
        { length: 20_000 },
        (_, i) => [`k${String(i).padStart(6, '0')}`, { i, pad: 'x'.repeat(40) }, 0] as const,
      ),
    );
    // Ten entries per step: thousands of steps, so the cancel lands mid-run.
    const handle = await s.backup.startBackup({
      name: 'doomed',
      scope: { treeId: 'big' },
      pageSize: 10,
    });
    const cancelled = await s.backup.cancelBackupOperation({ operationId: handle.operationId });
    expect(cancelled.status?.state).not.toBe(StoreOperationState.SUCCEEDED);
    const final = await s.finish(handle.operationId);
    expect(final.state).toBe(StoreOperationState.CANCELLED);
    expect(final.cancelRequested).toBe(true);
    // It stopped part-way: some entries read, not all.
    expect(final.progress?.done).toBeLessThan(20_000n);
    expect((await s.backup.listBackups({ treeId: 'big' })).backups).toEqual([]);

    // Cancelling again is a no-op that returns the same terminal record.
    const again = await s.backup.cancelBackupOperation({ operationId: handle.operationId });
    expect(again.status?.state).toBe(StoreOperationState.CANCELLED);
    expect(again.status?.finishedAt).toEqual(final.finishedAt);

    // A finished capture is not changed by a cancel either.
    const done = await s.finish(
      (await s.backup.startBackup({ name: 'small', scope: { treeId: 'idem' } })).operationId,
    );
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    const after = await s.backup.cancelBackupOperation({ operationId: done.operationId });
    expect(after.status?.state).toBe(StoreOperationState.SUCCEEDED);
    expect(after.status?.cancelRequested).toBe(false);
    expect(after.status?.result).toEqual(done.result);

    // The cancelled capture left no artifacts behind: a scrub finds no orphan.
    const scrub = await s.finish((await s.backup.startCatalogScrub({})).operationId);
    if (scrub.result.case !== 'scrub') throw new Error('no scrub result');
    expect(scrub.result.value.findings).toEqual([]);
    // An unknown id is absent, not an error.
    expect(
      (await s.backup.cancelBackupOperation({ operationId: 'op-nope' })).status,
    ).toBeUndefined();
  });
});
