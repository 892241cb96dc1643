import { afterEach, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  openTestStorage,
  type TestStorage,
} from '../../../../test/support/test-storage.js';
import {
  insertDrill,
  type StoredDrill,
} from '../../../storage/backup/drills/restore-drill-store.js';
import { backupProofs, treeProofs } from './drill-proofs.js';

const TENANT = 'proofs';

function drill(
  over: Partial<StoredDrill> & { operationId: string; finishedAt: number },
): StoredDrill {
  return {
    tenant: TENANT,
    backupId: 'b1',
    setId: null,
    treeName: 'alpha',
    keyPrefix: '',
    outcome: 'PROVEN',
    reasonKind: 'NONE',
    reason: 'restored 10 entries',
    firstDifferingKey: null,
    entries: 10,
    durationMs: 200,
    sampleSeed: '1',
    sampleSize: 10,
    startedAt: over.finishedAt - 200,
    startedBy: 'op',
    ...over,
  };
}

// Issue 36 bullet 5: the reads behind "last proven restorable" per tree and per backup.
describe.each(DIALECTS)('drill proofs on %s', (dialect) => {
  let storage: TestStorage | undefined;
  afterEach(async () => {
    await storage?.dispose();
    storage = undefined;
  });

  async function withTrees(...names: string[]) {
    storage = await openTestStorage(dialect);
    for (const name of names) {
      await storage.db
        .insertInto('trees')
        .values({
          tenant: TENANT,
          name,
          physical_tree_id: `p-${name}`,
          write_locked_by: null,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
    }
    return storage;
  }

  it('a tree reads its newest proven and newest drill; a tree never drilled reads neither', async () => {
    const s = await withTrees('alpha', 'beta', 'gamma');
    await insertDrill(s, drill({ operationId: 'o1', backupId: 'b1', finishedAt: 1000 }));
    await insertDrill(s, drill({ operationId: 'o2', backupId: 'b2', finishedAt: 2000 }));
    await insertDrill(
      s,
      drill({ operationId: 'o3', backupId: 'b3', finishedAt: 3000, outcome: 'FAILED' }),
    );
    // A prefix scope of beta and another tenant's drill of alpha.
    await insertDrill(
      s,
      drill({ operationId: 'o4', treeName: 'beta', keyPrefix: 'x/', finishedAt: 500 }),
    );
    await insertDrill(s, drill({ operationId: 'o5', tenant: 'other', finishedAt: 9000 }));

    const page = await treeProofs(s, TENANT, { pageSize: 0, pageToken: '' });
    expect(
      page.trees.map((t) => [t.treeName, t.lastProven?.operationId, t.lastDrill?.operationId]),
    ).toEqual([
      ['alpha', 'o2', 'o3'],
      ['beta', 'o4', 'o4'],
      ['gamma', undefined, undefined],
    ]);
    expect(page.nextPageToken).toBe('');
    expect(page.trees[0]?.lastDrill?.outcome).toBe('FAILED');
  });

  it('pages trees in name order and refuses a page size out of range', async () => {
    const s = await withTrees('c', 'a', 'b');
    await insertDrill(s, drill({ operationId: 'o1', treeName: 'c', finishedAt: 10 }));
    const first = await treeProofs(s, TENANT, { pageSize: 2, pageToken: '' });
    expect(first.trees.map((t) => t.treeName)).toEqual(['a', 'b']);
    const next = await treeProofs(s, TENANT, { pageSize: 2, pageToken: first.nextPageToken });
    expect(next.trees.map((t) => [t.treeName, t.lastProven?.operationId])).toEqual([['c', 'o1']]);
    expect(next.nextPageToken).toBe('');
    await expect(treeProofs(s, TENANT, { pageSize: 1001, pageToken: '' })).rejects.toThrow(
      /page_size/,
    );
  });

  it('each asked backup reads its own proof, in the order asked, unknown ones as never drilled', async () => {
    const s = await withTrees('alpha');
    await insertDrill(s, drill({ operationId: 'o1', backupId: 'b1', finishedAt: 1000 }));
    await insertDrill(
      s,
      drill({ operationId: 'o2', backupId: 'b1', finishedAt: 2000, outcome: 'FAILED' }),
    );
    await insertDrill(
      s,
      drill({ operationId: 'o3', backupId: 'b2', finishedAt: 3000, outcome: 'FAILED' }),
    );
    const proofs = await backupProofs(s, TENANT, ['b2', 'nope', 'b1']);
    expect(
      proofs.map((p) => [p.backupId, p.lastProven?.operationId, p.lastDrill?.operationId]),
    ).toEqual([
      ['b2', undefined, 'o3'],
      ['nope', undefined, undefined],
      ['b1', 'o1', 'o2'],
    ]);
    await expect(
      backupProofs(
        s,
        TENANT,
        Array.from({ length: 501 }, (_, i) => `b${i}`),
      ),
    ).rejects.toThrow(/at most 500/);
  });
});
