// A server that dies after a capture published its backups (the capture's last durable step)
// but before the operation's success was recorded: recovery finds the backups by operation id,
// and the operation ends SUCCEEDED with the result the capture would have returned.
import { StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

afterAll(closeSharedS3Server);

describe.each(DIALECTS)('a capture interrupted after it published, on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    let store: StoreUnderTest;
    let s: BackupServer;
    beforeAll(async () => {
      store = await storeUnderTest(kind);
      s = await startBackupServer(dialect, store.env);
    });
    afterAll(async () => {
      await s?.t.dispose();
    });

    /** Puts the operation back as a dead server left it: RUNNING, lease expired, no result. */
    async function asIfInterrupted(operationId: string) {
      await s.t.server.storage.db
        .updateTable('operations')
        .set({
          state: 'RUNNING',
          result_json: null,
          finished_at: null,
          lease_owner: 'a-server-that-died',
          lease_expires_at: Date.now() - 60_000,
        })
        .where('id', '=', operationId)
        .execute();
    }

    it('a single capture ends SUCCEEDED with the same result, and the catalog keeps one backup', async () => {
      await s.put('rec-single', { a: 1, b: 2 });
      const { operationId } = await s.backup.startBackup({
        name: 'rec-single',
        scope: { treeId: 'rec-single' },
      });
      const original = await s.finish(operationId);
      expect(original.state, original.error?.message).toBe(StoreOperationState.SUCCEEDED);
      await asIfInterrupted(operationId);
      const recovered = await s.finish(operationId);
      expect(recovered.state, recovered.error?.message).toBe(StoreOperationState.SUCCEEDED);
      expect(recovered.result).toEqual(original.result);
      expect((await s.backup.listBackups({ nameContains: 'rec-single' })).backups).toHaveLength(1);
    });

    it('a set ends SUCCEEDED with its members in the order of its scopes', async () => {
      await s.put('rec-z', { z: 1 });
      await s.put('rec-a', { a: 1 });
      const { operationId } = await s.backup.startBackupSet({
        name: 'rec-set',
        scopes: [{ treeId: 'rec-z' }, { treeId: 'rec-a' }],
        crossTreeConsistent: true,
      });
      const original = await s.finish(operationId);
      if (original.result.case !== 'setCapture') throw new Error(original.error?.message);
      await asIfInterrupted(operationId);
      const recovered = await s.finish(operationId);
      if (recovered.result.case !== 'setCapture') throw new Error(recovered.error?.message);
      expect(recovered.state).toBe(StoreOperationState.SUCCEEDED);
      expect(recovered.result.value.members).toEqual(original.result.value.members);
      const { createdAt: _o, ...setBefore } = original.result.value.setManifest ?? {};
      const { createdAt: _r, ...setAfter } = recovered.result.value.setManifest ?? {};
      expect(setAfter).toEqual(setBefore);
    });
  });
});
