import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreOperationState, StoreRestoreMode, type StoreOperationStatus } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import type { BackupManifestDoc } from '../../src/engines/backup/backup-types.js';
import { listAllBackupRows } from '../../src/storage/backup/backup-store.js';
import type { Dialect } from '../../src/storage/database.js';
import { leftoverRestoreTrees } from '../../src/storage/backup/restore-leftovers-store.js';
import { resolveTree } from '../../src/storage/data/tree-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { TENANT, startKillHarness, type KillHarness } from './kill-fixture.js';

// SQLite gets several kill points per kind; PostgreSQL one each, to keep the file short.
const CAPTURE_TRIALS: Record<Dialect, number> = { sqlite: 3, postgres: 1 };
const RESTORE_TRIALS: Record<Dialect, number> = { sqlite: 2, postgres: 1 };
const MIGRATION_TRIALS: Record<Dialect, number> = { sqlite: 2, postgres: 1 };
const ENTRIES = 6_000;
// Migrations rewrite every entry in paged transactions, far slower per entry than a capture.
const MIGRATED_ENTRIES = 3_000;
const { SUCCEEDED, FAILED } = StoreOperationState;

const bigValue = (i: number) => ({ i, text: `value number ${i} `.repeat(4) });
const beforeValue = (i: number) => ({ before: i });
const legacyValue = (i: number) => ({ name: `n${i}` });
const MOVE_NAME = {
  fromVersion: 1,
  toVersion: 2,
  transform: { ops: [{ op: 'move', from: '/name', path: '/fullName' }] },
};

describe.each(DIALECTS)('the server SIGKILLed mid-operation and restarted, on %s', (dialect) => {
  let h: KillHarness;
  let artifacts: DirectoryArtifactStore;
  let big: Record<string, unknown>;
  let baseline: { backupId: string; byteSize: number };
  beforeAll(async () => {
    h = await startKillHarness(dialect);
    artifacts = new DirectoryArtifactStore(join(h.location.dataDir, 'artifacts'));
    big = await h.fill('big', ENTRIES, bigValue);
    // An uninterrupted capture: the restores' source, and the measure of where to kill.
    const handle = await h.clients.backup.startBackup({
      name: 'baseline',
      scope: { treeId: 'big' },
      pageSize: 100,
    });
    const status = await h.settle(handle.operationId, 'backup');
    if (status.result.case !== 'capture') throw new Error(status.error?.message);
    baseline = {
      backupId: status.result.value.backupId,
      byteSize: Number(status.result.value.manifest?.byteSize ?? 0),
    };
  });
  afterAll(async () => {
    await h?.dispose();
  });

  /** Every catalogued backup is whole: the full entry count, every artifact verifies. */
  async function expectOnlyWholeBackups() {
    for (const row of await listAllBackupRows(h.storage, TENANT)) {
      const manifest = JSON.parse(row.manifestJson) as BackupManifestDoc;
      expect(manifest.entryCount, row.name).toBe(ENTRIES);
      for (const artifact of manifest.artifacts) {
        expect((await artifacts.verifyArtifact(TENANT, row.id, artifact)).ok).toBe(true);
      }
    }
  }

  /** Bytes of artifact files in backup directories no catalog row owns (a capture at work). */
  async function uncataloguedBytes(): Promise<number> {
    const owned = new Set((await listAllBackupRows(h.storage, TENANT)).map((r) => r.id));
    let bytes = 0;
    for (const stored of await artifacts.listStoredBackups(TENANT)) {
      if (owned.has(stored.backupId)) continue;
      for (const file of [...stored.tempFiles, ...stored.artifacts]) {
        bytes += await stat(file.path).then(
          (s) => s.size,
          () => 0,
        );
      }
    }
    return bytes;
  }

  /** Entries in physical trees of `treeName` that no tree points at yet (a restore's fresh one). */
  /** Progress recorded by the operation of a tracking id (0 before it exists). */
  async function progressOf(trackingId: string): Promise<number> {
    const row = await h.storage.db
      .selectFrom('operations')
      .select('progress_done')
      .where('tracking_id', '=', trackingId)
      .executeTakeFirst();
    return Number(row?.progress_done ?? 0);
  }

  async function freshTreeEntries(treeName: string): Promise<number> {
    const row = await h.storage.db
      .selectFrom('entries')
      .innerJoin('physical_trees', 'physical_trees.id', 'entries.physical_tree_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('physical_trees.tenant', '=', TENANT)
      .where('physical_trees.tree_name', '=', treeName)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('trees')
              .select('trees.name')
              .whereRef('trees.physical_tree_id', '=', 'physical_trees.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Key-by-key equality of two trees (JSON of each value). */
  function sameEntries(actual: Record<string, unknown>, expected: Record<string, unknown>) {
    const differing = Object.keys({ ...actual, ...expected }).filter(
      (key) => JSON.stringify(actual[key]) !== JSON.stringify(expected[key]),
    );
    return differing.length === 0;
  }

  async function scrubAndPrune() {
    const run = async (pruneOrphans: boolean) => {
      const handle = await h.clients.backup.startCatalogScrub({ pruneOrphans });
      const status = await h.settle(handle.operationId, 'backup');
      if (status.result.case !== 'scrub') throw new Error(status.error?.message);
      return status.result.value;
    };
    const pruned = await run(true);
    expect(pruned.orphansPruned).toBe(pruned.orphansFound);
    expect((await run(false)).orphansFound).toBe(0);
    return pruned;
  }

  it('a capture: no partial backup is ever catalogued, the operation ends, scrub prunes its files', async () => {
    const states: StoreOperationState[] = [];
    for (let trial = 0; trial < CAPTURE_TRIALS[dialect]; trial++) {
      const name = `killed-capture-${trial}`;
      // Small pages stretch the capture, so a loaded machine's slow polls still land inside it.
      const request = {
        name,
        scope: { treeId: 'big' },
        pageSize: 10,
        trackingOperationId: `kill-capture-${trial}`,
      };
      // Not awaited (see the migration test); the kill point is a random number of artifact
      // bytes on disk for a backup the catalog does not know yet.
      const starting = h.clients.backup.startBackup(request).catch(() => undefined);
      const killAt = 1 + Math.floor(Math.random() * baseline.byteSize * 0.75);
      // A capture that finished before a poll saw the kill point is killed late: still a valid
      // trial (the checks below hold for it), though only an early kill can end FAILED.
      await h.until(
        async () =>
          (await uncataloguedBytes()) >= killAt ||
          (await listAllBackupRows(h.storage, TENANT)).some((row) => row.name === name),
      );
      await h.restart();
      await starting;
      const handle = await h.clients.backup.startBackup(request);
      const status = await h.settle(handle.operationId, 'backup');
      states.push(status.state);
      expect([SUCCEEDED, FAILED]).toContain(status.state);
      if (status.state === FAILED) expect(status.error?.code).toBe('aborted');
      // A kill after the backup was published (its last durable step) but before success was
      // recorded is found at recovery: the operation succeeds with that backup. So a FAILED
      // capture left no backup, and a SUCCEEDED one exactly one, whole (checked below).
      const listed = await h.clients.backup.listBackups({ nameContains: name });
      expect(listed.backups).toHaveLength(status.state === SUCCEEDED ? 1 : 0);
      await expectOnlyWholeBackups();
    }
    expect(states).toContain(FAILED);
    const owned = new Set((await listAllBackupRows(h.storage, TENANT)).map((r) => r.id));
    const stray = (await artifacts.listStoredBackups(TENANT)).filter(
      (b) => !owned.has(b.backupId) || b.tempFiles.length > 0,
    );
    const report = await scrubAndPrune();
    expect(report.orphansFound).toBeGreaterThanOrEqual(stray.length);
    const after = await artifacts.listStoredBackups(TENANT);
    expect(after.every((b) => owned.has(b.backupId) && b.tempFiles.length === 0)).toBe(true);
    await expectOnlyWholeBackups();
    expect(await h.running()).toEqual([]);
  });

  it('a restore: the tree is the old one or the whole restore, key by key, and scrub drops the half-filled tree', async () => {
    const first = await h.clients.backup.startRestore({
      backupId: baseline.backupId,
      targetTreeId: 'restore-baseline',
      mode: StoreRestoreMode.NEW_TREE,
      applyBatchSize: 200,
    });
    expect((await h.settle(first.operationId, 'backup')).state).toBe(SUCCEEDED);
    expect(await h.read('restore-baseline')).toEqual(big);

    let interrupted = 0;
    for (let trial = 0; trial < RESTORE_TRIALS[dialect]; trial++) {
      const target = `restore-target-${trial}`;
      // A quarter of the keys, with other values: any half-applied restore would show.
      const before = await h.fill(target, ENTRIES / 4, beforeValue);
      const request = {
        backupId: baseline.backupId,
        targetTreeId: target,
        mode: StoreRestoreMode.IN_PLACE,
        applyBatchSize: 200,
        trackingOperationId: `kill-restore-${trial}`,
      };
      // Not awaited (see the migration test); the kill point is a random number of entries
      // applied to the restore's fresh, not yet installed tree.
      const starting = h.clients.backup.startRestore(request).catch(() => undefined);
      const killAt = 1 + Math.floor(Math.random() * ENTRIES * 0.75);
      // PostgreSQL loads the full backup in one COPY transaction, whose rows nobody sees until
      // it commits: there the restore's own recorded progress says how far it got.
      await h.until(
        async () =>
          (await freshTreeEntries(target)) >= killAt ||
          (await progressOf(request.trackingOperationId)) >= killAt,
      );
      await h.kill();
      await starting;
      // With no server running: the tree is the old one or the whole restore, key by key.
      const atKill = await h.readStored(target);
      const untouched = sameEntries(atKill, before);
      if (untouched) interrupted += 1;
      else
        expect(sameEntries(atKill, big), `tree ${target} is neither before nor restored`).toBe(
          true,
        );
      await h.restart();
      // Restores resume under their operation id: this one completes now, exactly once.
      const handle = await h.clients.backup.startRestore(request);
      const status: StoreOperationStatus = await h.settle(handle.operationId, 'backup');
      expect(status.state, status.error?.message).toBe(SUCCEEDED);
      expect(sameEntries(await h.read(target), big)).toBe(true);
    }
    expect(interrupted).toBeGreaterThan(0);
    const leftovers = await leftoverRestoreTrees(h.storage, TENANT, Date.now());
    const report = await scrubAndPrune();
    expect(report.findings.map((f) => f.artifactId)).toEqual(expect.arrayContaining(leftovers));
    expect(await leftoverRestoreTrees(h.storage, TENANT, Date.now())).toEqual([]);
    // Their entries went with them.
    const strayEntries = await h.storage.db
      .selectFrom('entries')
      .select('physical_tree_id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('physical_trees')
              .select('id')
              .whereRef('physical_trees.id', '=', 'entries.physical_tree_id'),
          ),
        ),
      )
      .limit(1)
      .execute();
    expect(strayEntries).toEqual([]);
    expect(await h.running()).toEqual([]);
  });

  it('a schema migration: each entry is at its old or new version, never torn; after restart it resumes and completes', async () => {
    const configure = (treeId: string) =>
      h.clients.schema.setVersionConfig({
        treeId,
        config: { currentVersion: 1, targetVersion: 2, migrations: [MOVE_NAME] },
      });
    let interrupted = 0;
    for (let trial = 0; trial < MIGRATION_TRIALS[dialect]; trial++) {
      const treeId = `mig-${trial}`;
      await h.fill(treeId, MIGRATED_ENTRIES, legacyValue, 1);
      await configure(treeId);
      const tree = await resolveTree(h.storage, TENANT, treeId);
      const entries = () =>
        h.storage.db
          .selectFrom('entries')
          .select(['key', 'value_json', 'schema_version'])
          .where('physical_tree_id', '=', tree?.physicalTreeId ?? '')
          .where('tombstone', '=', 0)
          .execute();
      // The kill point: once a random number of entries (some pages) has been migrated.
      const killAt = 1 + Math.floor(Math.random() * MIGRATED_ENTRIES * 0.75);
      // Not awaited: on SQLite the Start RPC's answer can arrive only as the run ends (its
      // event loop is busy with the run), so the kill must not wait for it. The tracking id
      // finds the operation again after the restart.
      const operationId = `kill-migration-${trial}`;
      const starting = h.clients.schema
        .startMigration({ treeId, operationId })
        .catch(() => undefined);
      const migratedCount = async () => {
        const row = await h.storage.db
          .selectFrom('entries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('physical_tree_id', '=', tree?.physicalTreeId ?? '')
          .where('schema_version', '=', 2)
          .executeTakeFirst();
        return Number(row?.n ?? 0);
      };
      await h.until(async () => (await migratedCount()) >= killAt);
      await h.kill();
      await starting;
      // Between the kill and the restart: every entry is wholly old or wholly migrated.
      const rows = await entries();
      expect(rows).toHaveLength(MIGRATED_ENTRIES);
      let migrated = 0;
      for (const row of rows) {
        const i = Number(row.key.slice('key-'.length));
        const value = JSON.parse(row.value_json ?? 'null') as unknown;
        if (Number(row.schema_version) === 2) {
          migrated += 1;
          expect(value).toEqual({ fullName: `n${i}` });
        } else {
          expect([Number(row.schema_version), value]).toEqual([1, legacyValue(i)]);
        }
      }
      if (migrated < MIGRATED_ENTRIES) interrupted += 1;

      await h.restart();
      const handle = await h.clients.schema.startMigration({ treeId, operationId });
      const status = await h.settle(handle.operationId, 'schema');
      expect(status.state, status.error?.message).toBe(SUCCEEDED);
      const expected = Object.fromEntries(
        Array.from({ length: MIGRATED_ENTRIES }, (_, i) => [
          `key-${String(i).padStart(6, '0')}`,
          { fullName: `n${i}` },
        ]),
      );
      expect(await h.read(treeId)).toEqual(expected);
      const config = await h.clients.schema.getVersionConfig({ treeId });
      expect(config.config?.currentVersion).toBe(2);
    }
    expect(interrupted).toBeGreaterThan(0);
    expect(await h.running()).toEqual([]);
  });
});
