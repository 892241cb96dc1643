// Two server replicas on one PostgreSQL schema and one artifact directory apply the same
// retention preview at the same moment: each planned backup is deleted exactly once.
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  RetentionAction,
  StoreOperationState,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { newStorageLocation } from '../support/test-storage.js';
import { ADMIN_TOKEN, type BackupServer } from './backup-fixture.js';
import {
  adminAudit,
  capture,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
} from './lifecycle-fixture.js';

describe('retention applied on two replicas at once (postgres)', () => {
  const location = newStorageLocation('postgres');
  const env = {
    STORE_BOOTSTRAP_TOKEN: ADMIN_TOKEN,
    STORE_ARTIFACT_DIR: join(location.dataDir, 'shared-artifacts'),
  };
  let a: TestServer;
  let b: TestServer;
  let s: BackupServer;

  beforeAll(async () => {
    a = await startTestServer('postgres', env, location);
    // The second replica: its own runner and listeners, the same database and artifacts.
    b = await startTestServer('postgres', env, location);
    const transport = createGrpcTransport({
      baseUrl: a.server.grpcUrl,
      interceptors: [bearerInterceptor(ADMIN_TOKEN)],
    });
    const backup = createClient(BackupControlService, transport);
    const data = createClient(TreeDataService, transport);
    s = {
      t: a,
      backup,
      data,
      async finish(operationId: string) {
        for (;;) {
          const { status } = await backup.getBackupOperationStatus({ operationId });
          if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
          await new Promise((r) => setTimeout(r, 25));
        }
      },
      async put(treeId: string, entries: Record<string, unknown>) {
        for (const [key, value] of Object.entries(entries)) {
          await data.putEntry({ treeId, key, valueJson: JSON.stringify(value) });
        }
      },
      read: () => Promise.resolve({}),
    };
  });
  afterAll(async () => {
    await b?.server.stop();
    await a?.dispose();
  });

  it('each backup the preview lists is deleted once, by one of them; the other deletes nothing twice', async () => {
    const tree = 'race';
    const scope = { treeId: tree };
    for (let chain = 0; chain < 4; chain++) {
      let base = await capture(s, tree);
      for (let i = 0; i < 3; i++) base = await capture(s, tree, base);
    }
    const viaA = lifecycleClient(a.server.grpcUrl);
    const viaB = lifecycleClient(b.server.grpcUrl);
    await viaA.setRetentionRules({ scope, rules: { keepLast: 1 } });
    const preview = await viaB.previewRetention({ scope });
    const planned = preview.entries
      .filter((e) => e.action === RetentionAction.DELETE)
      .map((e) => e.backupId)
      .sort();
    expect(planned).toHaveLength(12);
    // The audit records name them (their ids are gone with them).
    const plannedNames = preview.entries
      .filter((e) => e.action === RetentionAction.DELETE)
      .map((e) => e.name)
      .sort();

    const expectedFingerprint = preview.fingerprint;
    const handles = await Promise.all([
      viaA.startRetentionApply({ scope, expectedFingerprint }),
      viaB.startRetentionApply({ scope, expectedFingerprint }),
    ]);
    const deleted: string[] = [];
    for (const [i, handle] of handles.entries()) {
      const client = i === 0 ? viaA : viaB;
      const status = await settleLifecycle(client, handle.operationId);
      if (status.state === StoreOperationState.SUCCEEDED) {
        const result = await client.getRetentionApplyResult({ operationId: handle.operationId });
        deleted.push(...result.deletedBackupIds);
      } else {
        // The one that planned after the other had started deleting finds the scope changed.
        expect(status.error?.message).toContain('changed since the preview');
      }
    }
    expect(deleted.sort()).toEqual(planned);
    expect(await catalogIds(s, tree)).toHaveLength(4);
    const audit = adminAudit(a.server.grpcUrl);
    await expect
      .poll(async () => {
        const { records } = await audit.listAuditRecords({
          method: 'RetentionDelete',
          pageSize: 1000,
        });
        return records.map((r) => r.targetId).sort();
      })
      .toEqual(plannedNames);
  });
});
