import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
} from '../../../../test/support/artifact-stores.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import {
  allScratchTrees,
  getDrillRows,
  listDrills,
} from '../../../storage/backup/drills/restore-drill-store.js';
import { leftoverRestoreTrees } from '../../../storage/backup/restore-leftovers-store.js';
import { createPhysicalTree } from '../../../storage/data/physical-tree-store.js';
import {
  scratchEntriesTable,
  scratchEntriesTables,
} from '../../../storage/data/scratch-entries.js';
import { entriesTableOf } from '../../../storage/data/tree-db.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { OperationRunner } from '../../operations/operation-runner.js';
import type { OperationRecord } from '../../operations/types.js';
import { BackupEngine } from '../backup-engine.js';
import type { CaptureResult, SetCaptureResult } from '../backup-types.js';
import type { DrillTestSeams, RestoreDrillResult } from './drill-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'drill-tester' };

afterAll(closeSharedS3Server);

// Issue 36 bullet 2: a drill restores into a scratch tree, compares the recomputed digest and a
// sample with what the capture recorded, and leaves nothing behind.
describe.each(DIALECTS)('restore drills on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    const freshStorage = storagePerTest(dialect);
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setUp(seams: DrillTestSeams = {}) {
      const target = await storeUnderTest(kind);
      const storage = await freshStorage();
      const runner = new OperationRunner({ storage, pollMs: 20 });
      const engine = new BackupEngine({
        storage,
        runner,
        artifacts: target.open(storage.location.dataDir),
        schedulerMinIntervalMs: 1000,
        healthMonitoring: false,
        drillTestSeams: seams,
        // SQLite reads back on worker threads from 20 000 entries: here from the first, so the
        // planted faults below are caught on that path too.
        drillReadBackWorkersFrom: 0,
      });
      runner.start();
      cleanups.push(() => runner.stop({ graceMs: 0 }));
      const data = new TreeDataEngine({ storage });
      const settle = async (op: OperationRecord) => {
        for (;;) {
          const now = await runner.get(TENANT, op.id);
          if (now?.finishedAt) return now;
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const finish = async <T>(op: OperationRecord): Promise<T> => {
        const now = await settle(op);
        if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
        return now.result as T;
      };
      const capture = async (treeId: string, baseBackupId?: string) =>
        finish<CaptureResult>(
          await engine.startCapture(
            WHO,
            { name: 'd', scope: { treeId }, pageSize: 7, labels: {}, baseBackupId },
            baseBackupId !== undefined,
          ),
        );
      const drill = async (request: { backupId?: string; setId?: string; sampleSeed?: number }) =>
        finish<RestoreDrillResult>(await engine.drills.start(WHO, request));
      const put = (tree: string, key: string, value: unknown) =>
        data.putEntry(TENANT, tree, key, JSON.stringify(value));
      const fill = async (tree: string, count: number) => {
        for (let i = 0; i < count; i++) await put(tree, `k${String(i).padStart(3, '0')}`, { i });
      };
      // The scratch tree is dropped after the drill's result, in the background.
      const noScratchLeft = async () => {
        await engine.drills.dropsSettled();
        expect(await allScratchTrees(storage, TENANT)).toEqual([]);
        expect(await scratchEntriesTables(storage)).toEqual([]);
      };
      return {
        target,
        storage,
        runner,
        engine,
        data,
        settle,
        capture,
        drill,
        put,
        fill,
        noScratchLeft,
      };
    }

    it('a full and a 5-link incremental chain are PROVEN, recorded in the scope history, and leave no scratch tree', async () => {
      const { storage, data, capture, drill, put, fill, noScratchLeft } = await setUp({
        // The scratch tree exists mid-drill yet no listing shows it and no name reaches it.
        beforeCompare: async (physicalTreeId) => {
          expect(await allScratchTrees(storage, TENANT)).toHaveLength(1);
          // PostgreSQL: the scratch rows are in an unlogged table of their own, none in entries
          // (41 live entries, in the full and after the 5-link chain alike).
          const scratchRows = await storage.db
            .selectFrom('entries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('physical_tree_id', '=', physicalTreeId)
            .where('tombstone', '=', 0)
            .executeTakeFirstOrThrow();
          if (dialect === 'postgres') {
            expect(Number(scratchRows.n)).toBe(0);
            const [table] = await scratchEntriesTables(storage);
            expect(table).toBe(scratchEntriesTable(physicalTreeId));
            const { rows } = await sql<{ persistence: string; n: string }>`
              select c.relpersistence as persistence,
                (select count(*) from ${sql.table(table!)} where tombstone = 0)::text as n
              from pg_class c where c.oid = to_regclass(${table})`.execute(storage.db);
            expect(rows[0]).toEqual({ persistence: 'u', n: '41' });
          } else expect(Number(scratchRows.n)).toBe(41);
          // The restore-leftover scrub leaves a live drill's tree alone.
          expect(await leftoverRestoreTrees(storage, TENANT, Date.now())).toEqual([]);
          const listed = await data.listTrees(TENANT, { pageSize: 100, pageToken: '' });
          expect(listed.trees.map((t) => t.treeId)).toEqual(['dr']);
          const [scratch] = await storage.db
            .selectFrom('physical_trees')
            .select('tree_name')
            .where('tree_name', 'like', 'drill:%')
            .execute();
          await expect(data.putEntry(TENANT, scratch!.tree_name, 'x', '1')).rejects.toMatchObject({
            code: 'invalid_argument',
          });
        },
      });
      await fill('dr', 40);
      await put('dr', 'quote "q"\n', { text: 'é \\ "x"' });
      const full = await capture('dr');
      const proven = await drill({ backupId: full.backupId, sampleSeed: 7 });
      expect(proven).toMatchObject({
        outcome: 'PROVEN',
        reasonKind: 'NONE',
        entries: 41,
        sampleSeed: 7,
        firstDifferingKey: null,
      });
      expect(proven.reason).toMatch(
        /restored 41 entries; content digest and 41 sampled entries match/,
      );
      expect(proven.entriesPerSecond).toBeGreaterThan(0);

      const links = [full];
      for (let link = 1; link <= 5; link++) {
        await put('dr', `new-${link}`, { link });
        await put('dr', `k${String(link).padStart(3, '0')}`, { overwritten: link });
        await data.deleteEntry(TENANT, 'dr', `k${String(10 + link).padStart(3, '0')}`);
        links.push(await capture('dr', links[links.length - 1]!.backupId));
      }
      const last = links[links.length - 1]!;
      expect(last.entry.manifest.kind).toBe('INCREMENTAL');
      const chained = await drill({ backupId: last.backupId });
      expect(chained.outcome).toBe('PROVEN');
      expect(chained.backups[0]?.reason).toMatch(/restored 41 entries/);
      await noScratchLeft();

      const history = await listDrills(
        storage,
        { tenant: TENANT, treeName: 'dr', keyPrefix: '' },
        { limit: 10 },
      );
      expect(history.map((h) => [h.backupId, h.outcome, h.startedBy])).toEqual([
        [last.backupId, 'PROVEN', 'drill-tester'],
        [full.backupId, 'PROVEN', 'drill-tester'],
      ]);
    });

    it('a set is PROVEN member by member, one history row per member', async () => {
      const { storage, engine, fill, settle, noScratchLeft, runner } = await setUp();
      await fill('one', 12);
      await fill('two', 5);
      const op = await engine.startSet(WHO, {
        name: 's',
        scopes: [{ treeId: 'one' }, { treeId: 'two' }],
        crossTreeConsistent: true,
        pageSize: 0,
        labels: {},
      });
      let set: SetCaptureResult | undefined;
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) {
          set = now.result as SetCaptureResult;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const drillOp = await engine.drills.start(WHO, { setId: set.setManifest.setId ?? '' });
      const result = (await settle(drillOp)).result as RestoreDrillResult;
      expect(result.outcome).toBe('PROVEN');
      expect(result.backups.map((b) => [b.treeName, b.entries])).toEqual([
        ['one', 12],
        ['two', 5],
      ]);
      expect(result.entries).toBe(17);
      const rows = await getDrillRows(storage, TENANT, drillOp.id);
      expect(rows.map((r) => [r.treeName, r.outcome, r.setId])).toEqual([
        ['one', 'PROVEN', set.setManifest.setId],
        ['two', 'PROVEN', set.setManifest.setId],
      ]);
      await noScratchLeft();
    });

    it('a flipped byte in an artifact fails the drill as an unreadable artifact', async () => {
      const { target, storage, capture, drill, fill, noScratchLeft } = await setUp();
      await fill('fb', 30);
      const full = await capture('fb');
      const artifact = full.entry.manifest.artifacts[0]!;
      const file = target.artifactFile(
        storage.location.dataDir,
        TENANT,
        full.backupId,
        artifact.artifactId,
      );
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
      writeFileSync(file, bytes);
      const result = await drill({ backupId: full.backupId });
      expect(result).toMatchObject({ outcome: 'FAILED', reasonKind: 'UNREADABLE_ARTIFACT' });
      expect(result.reason).toMatch(
        new RegExp(`unreadable artifact: artifact ${artifact.artifactId}`),
      );
      await noScratchLeft();
    });

    it('a restore that drops one entry fails on the count, naming the dropped key', async () => {
      const { capture, drill, fill, noScratchLeft } = await setUp({
        keepRecord: (record) => record.key !== 'k017',
      });
      await fill('dp', 30);
      const full = await capture('dp');
      const result = await drill({ backupId: full.backupId });
      expect(result).toMatchObject({
        outcome: 'FAILED',
        reasonKind: 'COUNT',
        firstDifferingKey: 'k017',
      });
      expect(result.reason).toMatch(
        /count differs: the restore holds 29 entries, the capture recorded 30; first differing sampled key "k017"/,
      );
      await noScratchLeft();
    });

    it('a value changed in the scratch tree before the compare fails on the digest, naming the key', async () => {
      const { capture, drill, fill, noScratchLeft } = await setUp({
        beforeCompare: async (physicalTreeId, scratch) => {
          await sql`update ${sql.table(entriesTableOf(scratch))}
            set value_json = '{"i":"changed"}'
            where physical_tree_id = ${physicalTreeId} and key = 'k021'`.execute(scratch.db);
        },
      });
      await fill('ch', 30);
      const full = await capture('ch');
      const result = await drill({ backupId: full.backupId });
      expect(result).toMatchObject({
        outcome: 'FAILED',
        reasonKind: 'DIGEST',
        firstDifferingKey: 'k021',
      });
      expect(result.reason).toMatch(
        /content digest differs over 30 entries; first differing sampled key "k021"/,
      );
      await noScratchLeft();
    });

    it('a backup without a recorded digest fails saying so; a cancelled drill leaves nothing', async () => {
      const { storage, engine, runner, settle, capture, drill, fill, noScratchLeft } =
        await setUp();
      await fill('nd', 30);
      const full = await capture('nd');
      const row = await storage.db
        .selectFrom('backups')
        .select('manifest_json')
        .where('id', '=', full.backupId)
        .executeTakeFirstOrThrow();
      const manifest = JSON.parse(row.manifest_json) as Record<string, unknown>;
      delete manifest.contentDigest;
      await storage.db
        .updateTable('backups')
        .set({ manifest_json: JSON.stringify(manifest), content_digest: null })
        .where('id', '=', full.backupId)
        .execute();
      const result = await drill({ backupId: full.backupId });
      expect(result).toMatchObject({ outcome: 'FAILED', reasonKind: 'NO_DIGEST' });
      expect(result.reason).toMatch(/no digest recorded: .* captured before content digests/);

      await fill('slow', 200);
      const slow = await capture('slow');
      const op = await engine.drills.start(WHO, {
        backupId: slow.backupId,
        maxEntriesPerSecond: 50,
      });
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if ((now?.progress.done ?? 0) > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await runner.cancel(TENANT, op.id);
      expect((await settle(op)).state).toBe('CANCELLED');
      await noScratchLeft();
      expect(await getDrillRows(storage, TENANT, op.id)).toEqual([]);
    });

    it('the sweep drops scratch trees of drills that are not running (a killed process left them)', async () => {
      const { storage, engine } = await setUp();
      await createPhysicalTree(storage, {
        tenant: TENANT,
        treeName: 'drill:an-operation-long-gone',
        now: Date.now(),
      });
      expect(await allScratchTrees(storage, TENANT)).toHaveLength(1);
      expect(await engine.drills.sweepLeftovers()).toBe(1);
      expect(await allScratchTrees(storage, TENANT)).toEqual([]);
    });

    it('refuses a request naming neither or both of a backup and a set, and an unknown backup', async () => {
      const { engine } = await setUp();
      await expect(engine.drills.start(WHO, {})).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(engine.drills.start(WHO, { backupId: 'a', setId: 'b' })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(engine.drills.start(WHO, { backupId: 'nope' })).rejects.toMatchObject({
        code: 'not_found',
      });
    });
  });
});
