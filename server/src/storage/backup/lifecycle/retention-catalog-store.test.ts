import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { protectBackup } from './backup-protection-store.js';
import { backupRowValues } from '../backup-store.js';
import type { Storage } from '../../database.js';
import { saveHealthReport } from '../backup-health-store.js';
import { insertDrill } from '../drills/restore-drill-store.js';
import {
  backupHealth,
  backupNames,
  parseNumbers,
  provenBackupIds,
  readScopeCatalog,
} from './retention-catalog-store.js';

const T = 'acme';

interface Seed {
  id: string;
  tree?: string;
  prefix?: string | null;
  base?: string | null;
  set?: string | null;
  createdAt?: number;
  byteSize?: number;
  tenant?: string;
}

async function insert(storage: Storage, seeds: Seed[]) {
  await storage.db
    .insertInto('backups')
    .values(
      seeds.map((s) =>
        backupRowValues({
          tenant: s.tenant ?? T,
          id: s.id,
          name: `name of ${s.id}, with a comma`,
          kind: s.base ? 'INCREMENTAL' : 'FULL',
          treeName: s.tree ?? 'orders',
          keyPrefix: s.prefix ?? null,
          baseBackupId: s.base ?? null,
          setId: s.set ?? null,
          physicalTreeId: 'pt_1',
          createdAt: s.createdAt ?? 1_000,
          completedAt: (s.createdAt ?? 1_000) + 1,
          toSequence: 1,
          manifestJson: JSON.stringify({ byteSize: s.byteSize ?? 0 }),
        }),
      ),
    )
    .execute();
}

/** The columns as rows, sorted by id, for comparison. */
function rowsOf(columns: Awaited<ReturnType<typeof readScopeCatalog>>) {
  return columns.ids
    .map((id, i) => [
      id,
      columns.createdAt[i],
      columns.baseIds[i],
      columns.setIds[i],
      columns.byteSizes[i],
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

describe.each(DIALECTS)('retention catalog store on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  it('an empty scope reads as empty columns', async () => {
    await insert(storage, [{ id: 'bk_other', tree: 'other' }]);
    const columns = await readScopeCatalog(storage, {
      tenant: T,
      treeName: 'orders',
      keyPrefix: '',
    });
    expect(columns).toEqual({
      ids: [],
      createdAt: new Float64Array(0),
      baseIds: [],
      setIds: [],
      byteSizes: new Float64Array(0),
      protections: [],
      damaged: [],
      proven: [],
    });
  });

  it('reads the damaged backups of the scope with since when; a check still finding damage keeps that time, a healthy one clears it', async () => {
    await insert(storage, [
      { id: 'bk_a' },
      { id: 'bk_b' },
      { id: 'bk_c' },
      { id: 'bk_d', tree: 'invoices' },
    ]);
    const scope = { tenant: T, treeName: 'orders', keyPrefix: '' };
    const report = (backupId: string, status: string, checkedAt: number) =>
      saveHealthReport(storage, { tenant: T, backupId, status, checkedAt, json: '{}' });
    await report('bk_a', 'HEALTHY', 100);
    await report('bk_b', 'CORRUPT', 200);
    await report('bk_b', 'MISSING', 300);
    await report('bk_c', 'DEGRADED', 400);
    await report('bk_d', 'CORRUPT', 500);
    const damaged = (await readScopeCatalog(storage, scope)).damaged;
    expect(damaged.sort((x, y) => x.backupId.localeCompare(y.backupId))).toEqual([
      { backupId: 'bk_b', status: 'MISSING', since: 200 },
      { backupId: 'bk_c', status: 'DEGRADED', since: 400 },
    ]);
    expect(await backupHealth(storage, T, ['bk_a', 'bk_b', 'bk_gone'])).toEqual(
      new Map([
        ['bk_a', { status: 'HEALTHY', checkedAt: 100, damagedSince: null }],
        ['bk_b', { status: 'MISSING', checkedAt: 300, damagedSince: 200 }],
      ]),
    );
    // Repaired, then damaged again: since when it was found again.
    await report('bk_b', 'HEALTHY', 600);
    expect((await backupHealth(storage, T, ['bk_b'])).get('bk_b')?.damagedSince).toBeNull();
    await report('bk_b', 'CORRUPT', 700);
    expect((await readScopeCatalog(storage, scope)).damaged.map((d) => d.since).sort()).toEqual([
      400, 700,
    ]);
  });

  it("reads the scope's backups whose latest drill proved them: a later failed drill takes the proof back, other scopes and deleted backups do not count", async () => {
    await insert(storage, [
      { id: 'bk_a' },
      { id: 'bk_b' },
      { id: 'bk_c' },
      { id: 'bk_p', prefix: 'eu/' },
      { id: 'bk_x', tree: 'invoices' },
    ]);
    let op = 0;
    const drill = (
      backupId: string,
      outcome: 'PROVEN' | 'FAILED',
      finishedAt: number,
      extra = {},
    ) =>
      insertDrill(storage, {
        tenant: T,
        operationId: `op_${++op}`,
        backupId,
        setId: null,
        treeName: 'orders',
        keyPrefix: '',
        outcome,
        reasonKind: outcome === 'PROVEN' ? 'NONE' : 'DIGEST',
        reason: '',
        firstDifferingKey: null,
        entries: 1,
        durationMs: 1,
        sampleSeed: '1',
        sampleSize: 1,
        startedAt: finishedAt - 1,
        finishedAt,
        startedBy: 'tester',
        ...extra,
      });
    const scope = { tenant: T, treeName: 'orders', keyPrefix: '' };
    expect(await provenBackupIds(storage, scope)).toEqual([]);
    await drill('bk_a', 'PROVEN', 100);
    await drill('bk_b', 'PROVEN', 110);
    await drill('bk_b', 'FAILED', 120);
    await drill('bk_c', 'FAILED', 130);
    await drill('bk_c', 'PROVEN', 140);
    await drill('bk_gone', 'PROVEN', 150);
    await drill('bk_p', 'PROVEN', 160, { keyPrefix: 'eu/' });
    await drill('bk_x', 'PROVEN', 170, { treeName: 'invoices' });
    expect((await provenBackupIds(storage, scope)).sort()).toEqual(['bk_a', 'bk_c']);
    expect((await readScopeCatalog(storage, scope)).proven.sort()).toEqual(['bk_a', 'bk_c']);
    expect(
      await provenBackupIds(storage, { tenant: T, treeName: 'orders', keyPrefix: 'eu/' }),
    ).toEqual(['bk_p']);
    expect(await provenBackupIds(storage, { ...scope, tenant: 'other' })).toEqual([]);
  });

  it("reads exactly the scope's backups, column by column, with its protections only", async () => {
    const big = 2 ** 52 + 1;
    await insert(storage, [
      { id: 'bk_f', createdAt: 1_764_000_000_000, byteSize: big },
      { id: 'bk_i', base: 'bk_f', set: 'set_1', createdAt: 1_764_000_000_001, byteSize: 7 },
      { id: 'bk_empty_prefix', prefix: '', createdAt: 5 },
      { id: 'bk_prefixed', prefix: 'eu/', base: 'bk_f', createdAt: 6 },
      { id: 'bk_other_tree', tree: 'invoices' },
      { id: 'bk_other_tenant', tenant: 'globex' },
    ]);
    for (const backupId of ['bk_i', 'bk_prefixed']) {
      await protectBackup(storage, T, {
        backupId,
        protectedBy: 'alice',
        protectedAt: 9,
        reason: 'hold',
      });
    }
    const whole = await readScopeCatalog(storage, { tenant: T, treeName: 'orders', keyPrefix: '' });
    // No key prefix and an empty one are the same scope: the whole tree.
    expect(rowsOf(whole)).toEqual([
      ['bk_empty_prefix', 5, '', '', 0],
      ['bk_f', 1_764_000_000_000, '', '', big],
      ['bk_i', 1_764_000_000_001, 'bk_f', 'set_1', 7],
    ]);
    expect(whole.protections).toEqual([
      { backupId: 'bk_i', protectedBy: 'alice', protectedAt: 9, reason: 'hold' },
    ]);
    const prefixed = await readScopeCatalog(storage, {
      tenant: T,
      treeName: 'orders',
      keyPrefix: 'eu/',
    });
    expect(rowsOf(prefixed)).toEqual([['bk_prefixed', 6, 'bk_f', '', 0]]);
    expect(prefixed.protections.map((p) => p.backupId)).toEqual(['bk_prefixed']);
  });

  it('names are read for the ids asked, more than one query holds', async () => {
    const seeds = Array.from({ length: 1_203 }, (_, i) => ({ id: `bk_${i}` }));
    await insert(storage, seeds);
    const asked = [...seeds.map((s) => s.id), 'bk_absent'];
    const names = await backupNames(storage, T, asked);
    expect(names.size).toBe(1_203);
    expect(names.get('bk_1202')).toBe('name of bk_1202, with a comma');
    expect(names.has('bk_absent')).toBe(false);
    expect((await backupNames(storage, 'globex', asked)).size).toBe(0);
  });
});

describe('parseNumbers', () => {
  it('reads whole numbers fast and anything else the slow way, never a wrong count', () => {
    expect([...parseNumbers('0,12,1764000000000', 3)]).toEqual([0, 12, 1_764_000_000_000]);
    expect([...parseNumbers('', 0)]).toEqual([]);
    expect([...parseNumbers('-5,2.5,1e3', 3)]).toEqual([-5, 2.5, 1000]);
    expect([...parseNumbers(String(2 ** 53 - 1), 1)]).toEqual([2 ** 53 - 1]);
    expect(() => parseNumbers('1,2', 3)).toThrow(/expected 3 numbers/);
    expect(() => parseNumbers('1,,2', 3)).toThrow(/expected 3 numbers/);
    expect(() => parseNumbers('1,x', 2)).toThrow(/expected 2 numbers/);
  });
});
