// Who cancelled an operation is recorded (the caller's subject) and returned as cancelled_by,
// so a console can say "Cancelled by <who>" for any cancel, not only its own.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { seedTree } from '../support/schema-fixtures.js';
import { DIALECTS } from '../support/test-storage.js';
import { bearerInterceptor } from '../support/bearer.js';

describe.each(DIALECTS)('cancelled by on %s', (dialect) => {
  let s: BackupServer;
  let operator: BackupServer['backup'];
  let operatorSubject: string;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const issued = await s.t.server.tokens.issue({
      tenant: 'default',
      roles: ['operator'],
      name: 'night shift',
    });
    operatorSubject = `token:${issued.info.id}`;
    operator = createClient(
      BackupControlService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(issued.token)],
      }),
    );
    await seedTree(
      s.t.server.storage,
      'default',
      'big',
      Array.from(
        { length: 20_000 },
        (_, i) => [`k${String(i).padStart(6, '0')}`, { i, pad: 'x'.repeat(40) }, 0] as const,
      ),
    );
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('a cancel records its caller; a later cancel by someone else does not rename it', async () => {
    // Ten entries per step: thousands of steps, so the cancel lands mid-run.
    const handle = await s.backup.startBackup({
      name: 'doomed',
      scope: { treeId: 'big' },
      pageSize: 10,
    });
    const answer = await operator.cancelBackupOperation({ operationId: handle.operationId });
    expect(answer.status?.cancelledBy).toBe(operatorSubject);
    const final = await s.finish(handle.operationId);
    expect(final.state).toBe(StoreOperationState.CANCELLED);
    expect(final.cancelledBy).toBe(operatorSubject);

    // The admin's later cancel (a no-op on a terminal operation) keeps the first canceller.
    const again = await s.backup.cancelBackupOperation({ operationId: handle.operationId });
    expect(again.status?.cancelledBy).toBe(operatorSubject);
    const listed = await s.backup.listBackupOperations({ targetId: 'big' });
    const row = listed.operations.find((o) => o.operationId === handle.operationId);
    expect(row?.cancelledBy).toBe(operatorSubject);
  });

  it('an operation nobody cancelled, or that finished before the cancel, has no canceller', async () => {
    await s.put('small', { a: 1 });
    const done = await s.finish(
      (await s.backup.startBackup({ name: 'small', scope: { treeId: 'small' } })).operationId,
    );
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    expect(done.cancelledBy).toBeUndefined();
    const after = await operator.cancelBackupOperation({ operationId: done.operationId });
    expect(after.status?.state).toBe(StoreOperationState.SUCCEEDED);
    expect(after.status?.cancelledBy).toBeUndefined();
  });
});
