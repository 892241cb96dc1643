// Issue 37 bullets 1 and 7: while a full capture of a 200 000-entry tree (generated through SQL,
// not the API) runs, the same server process answers Health checks and ListEntries pages, again
// and again, at many points of the capture's progress — on SQLite too, where the capture's reads
// run on the server's own event loop in bounded steps along the key index.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { StoreOperationState } from '@store/contract';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTree } from '../../src/storage/data/tree-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

const ENTRIES = 200_000;

/** Fills `physicalTreeId` with ENTRIES live entries in one statement of the database's own. */
async function generateEntries(s: BackupServer, physicalTreeId: string): Promise<void> {
  const { db, dialect } = s.t.server.storage;
  const pad = 'x'.repeat(60);
  if (dialect === 'postgres') {
    await sql`
      insert into entries
        (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
      select ${physicalTreeId}, 'k' || lpad(i::text, 7, '0'),
        json_build_object('i', i, 'pad', ${pad}::text)::text, 0, i + 1, 0, 1
      from generate_series(1, ${ENTRIES}) as i
    `.execute(db);
  } else {
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ENTRIES})
      insert into entries
        (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
      select ${physicalTreeId}, printf('k%07d', i), json_object('i', i, 'pad', ${pad}),
        0, i + 1, 0, 1
      from n
    `.execute(db);
  }
  await db
    .updateTable('physical_trees')
    .set({ last_sequence: ENTRIES + 1 })
    .where('id', '=', physicalTreeId)
    .execute();
}

describe.each(DIALECTS)('calls answered during a big capture on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    await s.data.putEntry({ treeId: 'big', key: 'a', valueJson: '1' });
    const tree = await resolveTree(s.t.server.storage, 'default', 'big');
    if (!tree) throw new Error('no tree');
    await generateEntries(s, tree.physicalTreeId);
  }, 120_000);
  afterAll(async () => s?.t.dispose());

  it('Health and a ListEntries page are answered at many points while the capture reads', async () => {
    const health = createClient(Health, createGrpcTransport({ baseUrl: s.t.server.grpcUrl }));
    const { operationId } = await s.backup.startBackup({
      name: 'big',
      scope: { treeId: 'big' },
    });
    // Each probe: a Health check and a page of entries, then where the capture stood once both
    // were answered. A probe that finds the capture still running was answered during it.
    const during: bigint[] = [];
    for (;;) {
      const [check, page] = await Promise.all([
        health.check({}),
        s.data.listEntries({ treeId: 'big', pageSize: 10 }),
      ]);
      expect(check.status).toBe(ServingStatus.SERVING);
      expect(page.entries).toHaveLength(10);
      const { status } = await s.backup.getBackupOperationStatus({ operationId });
      if (!status || status.state >= StoreOperationState.SUCCEEDED) {
        expect(status?.state).toBe(StoreOperationState.SUCCEEDED);
        expect(status?.progress?.total).toBe(BigInt(ENTRIES + 1));
        break;
      }
      if (status.state === StoreOperationState.RUNNING) during.push(status.progress?.done ?? 0n);
    }
    // Answered while the capture ran, at several distinct points of its reading, from before
    // half the tree was read.
    const points = new Set(during.filter((done) => done > 0n && done < BigInt(ENTRIES + 1)));
    expect(points.size).toBeGreaterThanOrEqual(3);
    expect(during.some((done) => done < BigInt(ENTRIES / 2))).toBe(true);
  }, 120_000);
});
