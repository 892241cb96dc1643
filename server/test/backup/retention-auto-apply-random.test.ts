// Randomized: no automatic retention apply ever deletes the newest healthy backup of a scope, nor
// more than the allowed share of its usable backups. 200 random scopes per database (random
// catalogs with chains, protections and health states, random rules), from a seeded PRNG so a
// failure is reproduced by its seed (RETENTION_RANDOM_SEED). The catalog rows are written
// directly (no artifacts: a deletion of absent files is a no-op), the applies run as the
// scheduler's hook starts them, through the real runner and catalog.
import { StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupRowValues } from '../../src/storage/backup/backup-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';
import { lifecycleClient, settleLifecycle } from './lifecycle-fixture.js';

const SEED = Number(process.env.RETENTION_RANDOM_SEED ?? 3302);
const SCOPES = 200;
const MAX_SHARE = 0.4;
const HOUR = 3_600_000;
const DAMAGE = ['CORRUPT', 'MISSING', 'DEGRADED'] as const;
type Health = 'HEALTHY' | (typeof DAMAGE)[number] | null;

/** mulberry32: a small, well-mixed 32-bit PRNG; the same seed gives the same scopes. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

interface RandomBackup {
  id: string;
  createdAt: number;
  base: string | null;
  health: Health;
  protectedBy: boolean;
}

interface RandomScope {
  tree: string;
  backups: RandomBackup[];
  rules: { keepLast: number; keepHourly: number; keepDaily: number; keepWeekly: number };
}

function randomScopes(seed: number, now: number): RandomScope[] {
  const r = prng(seed);
  const scopes: RandomScope[] = [];
  for (let s = 0; s < SCOPES; s++) {
    const tree = `random-${s}`;
    const count = r.int(1, 12);
    const backups: RandomBackup[] = [];
    let at = now - r.int(1, 400) * HOUR;
    for (let i = 0; i < count; i++) {
      at += r.int(0, 30) * HOUR + r.int(0, 59) * 60_000;
      const previous = backups.at(-1);
      // Health: mostly never checked or healthy, some damaged.
      const roll = r.next();
      const health: Health = roll < 0.4 ? null : roll < 0.75 ? 'HEALTHY' : r.pick(DAMAGE);
      backups.push({
        // Ids sort as the catalog's tie-break would; equal times happen (gap 0).
        id: `bk_${s}_${String(i).padStart(2, '0')}`,
        createdAt: at,
        base: previous && r.next() < 0.3 ? previous.id : null,
        health,
        protectedBy: r.next() < 0.05,
      });
    }
    const rules = {
      keepLast: r.int(0, 3),
      keepHourly: r.next() < 0.3 ? r.int(1, 4) : 0,
      keepDaily: r.next() < 0.4 ? r.int(1, 3) : 0,
      keepWeekly: r.next() < 0.2 ? r.int(1, 2) : 0,
    };
    if (rules.keepLast + rules.keepHourly + rules.keepDaily + rules.keepWeekly === 0) {
      rules.keepLast = 1;
    }
    scopes.push({ tree, backups, rules });
  }
  return scopes;
}

/**
 * The test's own reading of "newest healthy" (docs/architecture.md, retention): the newest backup
 * a check found healthy; when none was verified, the newest one no check found damaged.
 */
function newestHealthy(backups: readonly RandomBackup[]): string | undefined {
  const newestFirst = [...backups].sort(
    (a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1),
  );
  return (
    newestFirst.find((b) => b.health === 'HEALTHY')?.id ??
    newestFirst.find((b) => b.health === null)?.id
  );
}

describe.each(DIALECTS)('randomized automatic retention on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    // Rules set without saying apply by themselves here (the setting turned on), and an automatic
    // apply may delete at most 40 % of a scope's usable backups.
    s = await startBackupServer(dialect, {
      STORE_RETENTION_APPLY_AFTER_SCHEDULE: 'true',
      STORE_RETENTION_AUTO_MAX_SHARE: String(MAX_SHARE),
    });
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it(`no automatic apply deletes the newest healthy backup of a scope nor more than ${MAX_SHARE * 100} % of it (seed ${SEED}, ${SCOPES} scopes)`, async () => {
    const admin = lifecycleClient(s.t.server.grpcUrl);
    const db = s.t.server.storage.db;
    const now = Date.now();
    const scopes = randomScopes(SEED, now);
    for (const scope of scopes) {
      await db
        .insertInto('backups')
        .values(
          scope.backups.map((b) => ({
            ...backupRowValues({
              tenant: 'default',
              id: b.id,
              name: `${scope.tree} ${b.id}`,
              kind: b.base ? 'INCREMENTAL' : 'FULL',
              treeName: scope.tree,
              keyPrefix: null,
              baseBackupId: b.base,
              setId: null,
              physicalTreeId: `pt_${scope.tree}`,
              createdAt: b.createdAt,
              completedAt: b.createdAt,
              toSequence: 1,
              manifestJson: JSON.stringify({ byteSize: 100 }),
            }),
            last_health_status: b.health,
            last_verified_at: b.health === null ? null : now - HOUR,
            health_damaged_since: b.health === null || b.health === 'HEALTHY' ? null : now - HOUR,
          })),
        )
        .execute();
      const pinned = scope.backups.filter((b) => b.protectedBy);
      if (pinned.length > 0) {
        await db
          .insertInto('backup_protections')
          .values(
            pinned.map((b) => ({
              tenant: 'default',
              backup_id: b.id,
              protected_by: 'tester',
              protected_at: now,
              reason: 'random pin',
            })),
          )
          .execute();
      }
      // No apply_after_schedule: the server's setting (on here) decides.
      const saved = await admin.setRetentionRules({
        scope: { treeId: scope.tree },
        rules: scope.rules,
      });
      expect(saved.applyAfterSchedule).toBe(true);
    }

    let stoppedNewest = 0;
    let stoppedShare = 0;
    let deletedSome = 0;
    for (const scope of scopes) {
      const record = await s.t.server.lifecycle.afterScheduledCapture(
        'default',
        { treeName: scope.tree, keyPrefix: '' },
        { name: `${scope.tree} scheduled`, incremental: false },
      );
      if (!record) throw new Error(`no automatic apply for ${scope.tree}`);
      const status = await settleLifecycle(admin, record.id);
      const context = `${scope.tree} (seed ${SEED}): ${JSON.stringify(scope)}`;
      expect(status.state, context).toBe(StoreOperationState.SUCCEEDED);
      if (status.result.case !== 'retentionApply') throw new Error(`no result: ${context}`);
      const result = status.result.value;
      // Read from the table: these rows' manifests are not whole enough for ListBackups.
      const rows = await db
        .selectFrom('backups')
        .select('id')
        .where('tenant', '=', 'default')
        .where('tree_name', '=', scope.tree)
        .execute();
      const left = new Set(rows.map((row) => row.id));
      const deleted = scope.backups.filter((b) => !left.has(b.id));
      const usable = scope.backups.filter((b) => b.health === null || b.health === 'HEALTHY');
      const newest = newestHealthy(scope.backups);

      if (newest !== undefined) expect(left.has(newest), context).toBe(true);
      expect(deleted.length, context).toBeLessThanOrEqual(MAX_SHARE * usable.length);
      // What retention never deletes anyway: damaged and protected backups.
      expect(
        deleted.filter((b) => (b.health !== null && b.health !== 'HEALTHY') || b.protectedBy),
        context,
      ).toEqual([]);
      expect(Number(result.deletedCount), context).toBe(deleted.length);
      if (result.stoppedReason !== '') {
        expect(deleted, context).toEqual([]);
        if (result.stoppedReason.includes('newest backup')) stoppedNewest += 1;
        else if (result.stoppedReason.includes('an automatic apply may delete')) stoppedShare += 1;
        else throw new Error(`a stop without a known reason: ${result.stoppedReason}`);
      } else if (deleted.length > 0) {
        deletedSome += 1;
      }
    }
    // The sample reached every branch: applies that stopped for each reason, and that deleted.
    expect(stoppedNewest).toBeGreaterThan(0);
    expect(stoppedShare).toBeGreaterThan(0);
    expect(deletedSome).toBeGreaterThan(0);
  }, 240_000);
});
