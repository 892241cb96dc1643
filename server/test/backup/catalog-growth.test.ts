import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupInsightService, type CatalogGrowthPoint } from '@store/contract';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupRowValues } from '../../src/storage/backup/backup-store.js';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

const DAY_MS = 86_400_000;

describe.each(DIALECTS)('Catalog growth and what retention freed on %s', (dialect) => {
  let s: BackupServer;
  const now = Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  /** Noon (UTC) of the day `days` before today. */
  const noonDaysAgo = (days: number) => today - days * DAY_MS + DAY_MS / 2;

  async function addBackup(tree: string, id: string, createdAt: number, byteSize: number) {
    await s.t.server.storage.db
      .insertInto('backups')
      .values(
        backupRowValues({
          tenant: 'default',
          id,
          name: id,
          kind: 'FULL',
          treeName: tree,
          keyPrefix: null,
          baseBackupId: null,
          setId: null,
          physicalTreeId: `pt_${tree}`,
          createdAt,
          completedAt: createdAt,
          toSequence: 1,
          manifestJson: JSON.stringify({ byteSize }),
        }),
      )
      .execute();
  }

  async function addRetentionDeletion(
    id: string,
    createdAt: number | null,
    deletedAt: number,
    byteSize: number,
  ) {
    await s.t.server.storage.db
      .insertInto('backup_retention_deletions')
      .values({
        tenant: 'default',
        backup_id: id,
        operation_id: 'op_retention',
        tree_name: 'growing',
        key_prefix: '',
        backup_name: id,
        byte_size: byteSize,
        backup_created_at: createdAt,
        claimed_at: deletedAt,
        deleted_at: deletedAt,
      })
      .execute();
  }

  beforeAll(async () => {
    s = await startBackupServer(dialect);
    await addBackup('growing', 'bk_old', noonDaysAgo(40), 100);
    await addBackup('growing', 'bk_five', noonDaysAgo(5), 200);
    await addBackup('growing', 'bk_now', now - 1000, 300);
    await addBackup('other', 'bk_other', noonDaysAgo(1), 11);
    // In the catalog from 10 days ago until retention deleted it 3 days ago.
    await addRetentionDeletion('bk_gone3', noonDaysAgo(10), noonDaysAgo(3), 50);
    // From 20 days ago until a second ago.
    await addRetentionDeletion('bk_gone_now', noonDaysAgo(20), now - 1000, 7);
    // Created and deleted before the window: on no day, and not freed in the last 30 days.
    await addRetentionDeletion('bk_ancient', noonDaysAgo(50), noonDaysAgo(40), 1000);
    // Deleted before its creation time was recorded: freed, but on no day of the growth.
    await addRetentionDeletion('bk_unknown_birth', null, noonDaysAgo(2), 9);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  /** [days ago, backups, bytes] of each point, newest last. */
  const readable = (points: readonly CatalogGrowthPoint[]) =>
    points.map((p) => [
      (today - timestampMs(p.day!)) / DAY_MS,
      Number(p.backupCount),
      Number(p.storedBytes),
    ]);
  /** The expected points of days `from`..`to` ago (inclusive, oldest first). */
  const days = (from: number, to: number, count: number, bytes: number) =>
    Array.from({ length: from - to + 1 }, (_, i) => [from - i, count, bytes]);

  it('per tree and in total: backups and stored bytes at the end of each of the last 30 days, and what retention freed', async () => {
    const token = (await s.t.server.tokens.issue({ tenant: 'default', roles: ['viewer'] })).token;
    const insight = createClient(
      BackupInsightService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(token)],
      }),
    );
    const summary = await insight.getCatalogSummary({});
    const growing = summary.trees.find((t) => t.treeId === 'growing')!;
    expect(readable(growing.growth)).toEqual([
      ...days(29, 21, 1, 100),
      ...days(20, 11, 2, 107),
      ...days(10, 6, 3, 157),
      ...days(5, 4, 4, 357),
      ...days(3, 1, 3, 307),
      [0, 3, 600],
    ]);
    const other = summary.trees.find((t) => t.treeId === 'other')!;
    expect(readable(other.growth)).toEqual([...days(29, 2, 0, 0), ...days(1, 0, 1, 11)]);
    // The total is the trees' sum; today's point is the catalog as it is.
    expect(readable(summary.growth).slice(-3)).toEqual([
      [2, 3, 307],
      [1, 4, 318],
      [0, 4, 611],
    ]);
    expect(summary.storedBytes).toBe(611n);
    expect(summary.retentionFreedLastDay).toMatchObject({ backupCount: 1n, bytes: 7n });
    expect(summary.retentionFreedLast30Days).toMatchObject({ backupCount: 3n, bytes: 66n });
  });
});
