// Bulk seeding of a tree through the storage layer (not measured): the logical tree is made by
// the store's own ensureTree, the rows go in through the raw driver in large transactions.
import type { Storage } from '../../server/src/storage/database.js';
import { raiseLastSequence } from '../../server/src/storage/data/physical-tree-store.js';
import { ensureTree } from '../../server/src/storage/data/tree-store.js';
import type { EntryRow, RawDb } from './raw-db.js';

const SEED_BATCH = 50_000;

export function entryKey(i: number): string {
  return `user/${String(i).padStart(8, '0')}`;
}

/**
 * A ≈256-byte canonical JSON value (keys sorted, no spaces), varied enough that gzip sees
 * realistic text rather than one repeated line.
 */
export function entryValue(i: number, generation = 0): string {
  const word = (n: number) => ((n * 2654435761) >>> 0).toString(36);
  const value = {
    active: i % 3 !== 0,
    balance: ((i * 7919) % 1_000_000) / 100,
    email: `person${i}@example-${word(i).slice(0, 5)}.test`,
    generation,
    id: i,
    name: `Person ${word(i + 1)} ${word(i + 2)}`,
    notes: `${word(i + 3)} ${word(i + 4)} ${word(i + 5)} ${word(i + 6)} ${word(i + 7)} ${word(i + 8)}`,
    tags: [`t${i % 17}`, `t${i % 23}`, `region-${i % 7}`],
    updated: 1_700_000_000_000 + i * 1000,
  };
  return JSON.stringify(value);
}

export interface SeededTree {
  physicalTreeId: string;
  entries: number;
  lastSequence: number;
}

/** Fills a new tree with `count` entries; sequences 1..count. */
export async function seedTree(
  storage: Storage,
  raw: RawDb,
  tenant: string,
  name: string,
  count: number,
): Promise<SeededTree> {
  const tree = await ensureTree(storage, tenant, name, Date.now());
  for (let start = 0; start < count; start += SEED_BATCH) {
    const rows: EntryRow[] = [];
    for (let i = start; i < Math.min(count, start + SEED_BATCH); i++) {
      rows.push({ key: entryKey(i), valueJson: entryValue(i), sequence: i + 1 });
    }
    await raw.insertEntries(tree.physicalTreeId, rows, Date.now());
  }
  await raiseLastSequence(storage, tree.physicalTreeId, count);
  // Fresh planner statistics, as autovacuum would gather after such a load: with the stale ones
  // PostgreSQL sorts the rest of the tree for every keyset page instead of walking the index.
  if (storage.dialect === 'postgres') await raw.exec([{ sql: 'analyze entries', params: [] }]);
  return { physicalTreeId: tree.physicalTreeId, entries: count, lastSequence: count };
}

/**
 * Rewrites every `step`-th entry with a new value and a new sequence, the way a write would,
 * so an incremental capture sees exactly those entries. Returns how many changed.
 */
export async function changeEvery(
  raw: RawDb,
  tree: SeededTree,
  step: number,
  generation: number,
): Promise<number> {
  const statements: { sql: string; params: unknown[] }[] = [];
  let sequence = tree.lastSequence;
  for (let i = 0; i < tree.entries; i += step) {
    sequence += 1;
    statements.push({
      sql: 'update entries set value_json = ?, sequence = ? where physical_tree_id = ? and key = ?',
      params: [entryValue(i, generation), sequence, tree.physicalTreeId, entryKey(i)],
    });
  }
  statements.push({
    sql: 'update physical_trees set last_sequence = ? where id = ?',
    params: [sequence, tree.physicalTreeId],
  });
  await raw.exec(statements);
  const changed = sequence - tree.lastSequence;
  tree.lastSequence = sequence;
  return changed;
}
