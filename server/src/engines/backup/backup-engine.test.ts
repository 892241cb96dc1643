import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
} from '../../../test/support/artifact-stores.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { deleteBackupRows } from '../../storage/backup/backup-store.js';
import { TreeDataEngine } from '../data/tree-data-engine.js';
import type { StoreError } from '../errors.js';
import { OperationRunner } from '../operations/operation-runner.js';
import type { OperationRecord } from '../operations/types.js';
import { BackupEngine, type BackupEngineOptions } from './backup-engine.js';
import type { ArtifactRecord } from './artifacts/index.js';
import type {
  CaptureResult,
  RebuildResult,
  RestoreResult,
  SetCaptureResult,
} from './backup-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };

afterAll(closeSharedS3Server);

describe.each(DIALECTS)('the backup engine on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    const freshStorage = storagePerTest(dialect);
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setUp(hooks: Partial<BackupEngineOptions> = {}) {
      // A fresh prefix per engine on S3, as a fresh directory per storage: each sees only its own.
      const target = await storeUnderTest(kind);
      const storage = await freshStorage();
      const runner = new OperationRunner({ storage, pollMs: 20 });
      const engine = new BackupEngine({
        storage,
        runner,
        artifacts: target.open(storage.location.dataDir),
        schedulerMinIntervalMs: 1000,
        healthMonitoring: true,
        ...hooks,
      });
      runner.start();
      cleanups.push(() => runner.stop({ graceMs: 0 }));
      const data = new TreeDataEngine({ storage });
      const finish = async (op: OperationRecord) => {
        for (;;) {
          const now = await runner.get(TENANT, op.id);
          if (now?.finishedAt) {
            if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
            return now.result;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const records = async (result: CaptureResult) => {
        const out: ArtifactRecord[] = [];
        for (const artifact of result.entry.manifest.artifacts) {
          for await (const r of engine.artifacts.readArtifactRecords(
            TENANT,
            result.backupId,
            artifact,
          )) {
            out.push(r);
          }
        }
        return out;
      };
      return { storage, runner, engine, data, finish, records };
    }

    it('a full capture is consistent at one sequence point although writers change the tree while it reads', async () => {
      let writer: (() => Promise<void>) | undefined;
      const env = await setUp({ afterCapturePage: async () => writer?.() });
      const { data, engine, finish, records } = env;
      for (let i = 0; i < 50; i++) {
        await data.putEntry(
          TENANT,
          'snap',
          `k${String(i).padStart(3, '0')}`,
          JSON.stringify({ v: 1 }),
        );
      }
      let writes = 0;
      writer = async () => {
        if (writes++ > 0) return;
        // Overwrites of keys not yet read and already read, a delete and a new key, mid-capture.
        await data.putEntry(TENANT, 'snap', 'k049', JSON.stringify({ v: 2 }));
        await data.putEntry(TENANT, 'snap', 'k000', JSON.stringify({ v: 2 }));
        await data.deleteEntry(TENANT, 'snap', 'k030');
        await data.putEntry(TENANT, 'snap', 'k999', JSON.stringify({ v: 2 }));
      };
      const op = await engine.startCapture(
        WHO,
        { name: 'f', scope: { treeId: 'snap' }, pageSize: 10, labels: {} },
        false,
      );
      const full = (await finish(op)) as CaptureResult;
      expect(writes).toBeGreaterThan(0);
      expect(full.entry.manifest.toSequence).toBe(50);
      const got = await records(full);
      expect(got).toHaveLength(50);
      expect(got.every((r) => r.valueJson === '{"v":1}' && r.sequence <= 50)).toBe(true);

      // The next incremental picks up exactly what changed after that point, tombstone included.
      writer = undefined;
      const incOp = await engine.startCapture(
        WHO,
        {
          name: 'i',
          scope: { treeId: 'snap' },
          pageSize: 0,
          labels: {},
          baseBackupId: full.backupId,
        },
        true,
      );
      const inc = (await finish(incOp)) as CaptureResult;
      const changed = await records(inc);
      expect(changed.map((r) => [r.key, r.valueJson])).toEqual([
        ['k000', '{"v":2}'],
        ['k030', null],
        ['k049', '{"v":2}'],
        ['k999', '{"v":2}'],
      ]);
    });

    it('a cross-tree-consistent set captures every member at one point; without the flag each member has its own', async () => {
      let pages = 0;
      let writer: (() => Promise<void>) | undefined;
      const env = await setUp({
        afterCapturePage: async () => {
          pages += 1;
          await writer?.();
        },
      });
      const { data, engine, finish, records } = env;
      for (const tree of ['left', 'right']) {
        for (let i = 0; i < 30; i++) {
          await data.putEntry(TENANT, tree, `k${String(i).padStart(2, '0')}`, '{"v":1}');
        }
      }
      // While the first member is being read, the second tree changes.
      const changeRightOnce = () => {
        let done = false;
        return async () => {
          if (done) return;
          done = true;
          await data.putEntry(TENANT, 'right', 'k00', '{"v":2}');
          await data.putEntry(TENANT, 'right', 'new', '{"v":2}');
        };
      };
      const captureSet = async (crossTreeConsistent: boolean) => {
        writer = changeRightOnce();
        pages = 0;
        const op = await engine.startSet(WHO, {
          name: 'set',
          scopes: [{ treeId: 'left' }, { treeId: 'right' }],
          crossTreeConsistent,
          pageSize: 10,
          labels: {},
        });
        const result = (await finish(op)) as SetCaptureResult;
        const right = result.members.find((m) => m.entry.manifest.treeName === 'right')!;
        return { result, right: await records(right), pages };
      };

      const consistent = await captureSet(true);
      expect(consistent.right).toHaveLength(30);
      expect(consistent.right.every((r) => r.valueJson === '{"v":1}')).toBe(true);
      // Page size 10 over two trees of 30 entries: at least three steps per tree.
      expect(consistent.pages).toBeGreaterThanOrEqual(6);
      expect(consistent.pages).toBeLessThanOrEqual(8);
      const setIds = consistent.result.members.map((m) => m.entry.manifest.setId);
      expect(setIds).toEqual([
        consistent.result.setManifest.setId,
        consistent.result.setManifest.setId,
      ]);

      // Without the flag the second member is read at its own, later point: it sees the change.
      await data.putEntry(TENANT, 'right', 'k00', '{"v":1}');
      await data.deleteEntry(TENANT, 'right', 'new');
      const independent = await captureSet(false);
      expect(independent.right.find((r) => r.key === 'new')?.valueJson).toBe('{"v":2}');
    });

    it('a cold restore works with the catalog rows gone and refuses tree writes while it runs', async () => {
      const refusals: string[] = [];
      const ref: { data?: TreeDataEngine } = {};
      const env = await setUp({
        afterRestoreBatch: async () => {
          try {
            await ref.data?.putEntry(TENANT, 'cold', 'intruder', '1');
          } catch (error) {
            refusals.push((error as StoreError).code);
          }
        },
      });
      ref.data = env.data;
      const { engine, finish, storage, data } = env;
      for (let i = 0; i < 30; i++) await data.putEntry(TENANT, 'cold', `k${i}`, String(i));
      const full = (await finish(
        await engine.startCapture(
          WHO,
          { name: 'f', scope: { treeId: 'cold' }, pageSize: 0, labels: {} },
          false,
        ),
      )) as CaptureResult;
      await deleteBackupRows(storage, TENANT, [full.backupId]);
      for (let i = 0; i < 30; i++) await data.deleteEntry(TENANT, 'cold', `k${i}`);

      const op = await engine.startRestore(
        WHO,
        { backupId: full.backupId, mode: 'IN_PLACE', applyBatchSize: 5 },
        true,
      );
      const result = (await finish(op)) as RestoreResult;
      expect(result.entriesApplied).toBe(30);
      expect(refusals.length).toBeGreaterThan(0);
      expect(new Set(refusals)).toEqual(new Set(['failed_precondition']));
      const page = await data.listEntries(TENANT, 'cold', { pageSize: 100 });
      expect(page.entries.map((e) => e.key).sort()).toEqual(
        Array.from({ length: 30 }, (_, i) => `k${i}`).sort(),
      );
      // The lock is gone afterwards.
      await data.putEntry(TENANT, 'cold', 'after', '1');

      // And the catalog comes back from the manifests.
      const rebuilt = (await finish(await engine.startRebuild(WHO))) as RebuildResult;
      expect(rebuilt.rowsRestored).toBe(1);
      expect((await engine.catalog.describe(TENANT, full.backupId))?.chain).toEqual([
        full.backupId,
      ]);
    });

    it('a restore cancelled while its full backup is loading (a COPY on PostgreSQL) leaves the tree as it was and no rows behind', async () => {
      let batches = 0;
      const ref: { cancel?: () => Promise<void> } = {};
      const env = await setUp({
        afterRestoreBatch: async () => {
          if (++batches === 2) await ref.cancel?.();
        },
      });
      const { engine, finish, storage, data, runner } = env;
      for (let i = 0; i < 40; i++) await data.putEntry(TENANT, 'keep', `k${i}`, String(i));
      const full = (await finish(
        await engine.startCapture(
          WHO,
          { name: 'f', scope: { treeId: 'keep' }, pageSize: 0, labels: {} },
          false,
        ),
      )) as CaptureResult;
      await data.putEntry(TENANT, 'keep', 'k0', '"changed"');

      const op = await engine.startRestore(
        WHO,
        { backupId: full.backupId, mode: 'IN_PLACE', applyBatchSize: 5 },
        false,
      );
      ref.cancel = async () => {
        await runner.cancel(TENANT, op.id);
      };
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) {
          expect(now.state).toBe('CANCELLED');
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(batches).toBeLessThan(8);
      // The tree is the one before the restore, and the fresh tree went with its rows.
      expect((await data.getEntry(TENANT, 'keep', 'k0'))?.valueJson).toBe('"changed"');
      const rows = await storage.db
        .selectFrom('entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(40);
      // The storage still serves: no connection was left inside the aborted load.
      await data.putEntry(TENANT, 'keep', 'after', '1');
    });
  });
});
