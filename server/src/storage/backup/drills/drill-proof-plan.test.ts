import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../../../test/support/test-storage.js';
import { newestDrillsQuery } from './drill-proof-store.js';
import { insertDrill } from './restore-drill-store.js';

// Issue 36 bullet 5: the proof reads walk migration 0032's indexes, never the whole drills table
// (SQLite's plan; PostgreSQL's planner picks by statistics, and its indexes are the same).
describe('the proof reads on sqlite', () => {
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await openTestStorage('sqlite');
    for (let i = 0; i < 200; i++) {
      await insertDrill(storage, {
        tenant: `t${i % 5}`,
        operationId: `op${i}`,
        backupId: `b${i % 40}`,
        setId: null,
        treeName: `tree${i % 20}`,
        keyPrefix: '',
        outcome: i % 3 === 0 ? 'FAILED' : 'PROVEN',
        reasonKind: 'NONE',
        reason: '',
        firstDifferingKey: null,
        entries: 1,
        durationMs: 1,
        sampleSeed: '1',
        sampleSize: 1,
        startedAt: i,
        finishedAt: i + 1,
        startedBy: 'x',
      });
    }
    await storage.db.executeQuery(CompiledQuery.raw('analyze'));
  });
  afterAll(async () => storage?.dispose());

  async function plan(by: 'tree_name' | 'backup_id', values: string[]): Promise<string> {
    const query = newestDrillsQuery(storage, 't1', by, values).compile();
    const rows = await storage.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.rows.map((r) => r.detail).join('\n');
  }

  it.each([
    ['tree_name', ['tree1', 'tree6'], 'backup_restore_drills_by_tree_outcome'],
    ['backup_id', ['b1', 'b6'], 'backup_restore_drills_by_backup'],
  ] as const)('reads the newest drills by %s through its index', async (by, values, index) => {
    const detail = await plan(by, [...values]);
    expect(detail).toContain(index);
    // No step reads the drills table whole.
    expect(detail).not.toMatch(/SCAN (backup_restore_drills|d)\b(?! USING)/);
  });
});
