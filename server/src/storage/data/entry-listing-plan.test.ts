// Issue 37: a page of ListEntries reads one tree's entries through the (physical tree, key)
// index in key order and stops after the page, however many entries other trees and tenants
// hold. The plan of the exact statement listLiveEntries runs is asserted on both databases.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestStorage, type TestStorage } from '../../../test/support/test-storage.js';
import { bulkInsertEntries, type EntryToInsert } from './physical-tree-store.js';
import { refreshEntryStatistics } from './planner-statistics.js';
import { ensureTree, liveEntriesPage, listLiveEntries } from './tree-store.js';

const TREES = [
  ['acme', 'small'],
  ['acme', 'big'],
  ['acme', 'other'],
  ['globex', 'big'],
] as const;
const ENTRIES_PER_TREE = 5000;

/** A page as ListEntries asks for it: first page, next page, under a prefix (page size + 1). */
const PAGES = [
  { limit: 11 },
  { afterKey: 'k02500', limit: 11 },
  { keyPrefix: 'k031', limit: 11 },
  { keyPrefix: 'k03', afterKey: 'k0350', limit: 101 },
];

describe.each(DIALECTS)('a page of entries on %s', (dialect) => {
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await openTestStorage(dialect);
    for (const [tenant, name] of TREES) {
      const tree = await ensureTree(storage, tenant, name, 1);
      // The small tree holds a tenth, so the planner cannot lean on every tree being alike.
      const count = name === 'small' ? ENTRIES_PER_TREE / 10 : ENTRIES_PER_TREE;
      const entries: EntryToInsert[] = Array.from({ length: count }, (_, i) => ({
        key: `k${String(i).padStart(5, '0')}`,
        valueJson: JSON.stringify({ i, pad: 'x'.repeat(100) }),
        tombstone: i % 50 === 0,
        sequence: i + 1,
        schemaVersion: 0,
        updatedAt: 1,
      }));
      await bulkInsertEntries(storage, tree.physicalTreeId, entries);
    }
    await refreshEntryStatistics(storage);
  }, 60_000);
  // afterAll, not storagePerTest: one seeded table serves every page shape.
  afterAll(async () => storage?.dispose());

  it('returns the same pages as before: live entries in key order after the key, under the prefix', async () => {
    const keys = async (tenant: string, name: string, page: (typeof PAGES)[number]) =>
      (await listLiveEntries(storage, tenant, name, page)).map((e) => e.key);
    expect(await keys('acme', 'big', { limit: 3 })).toEqual(['k00001', 'k00002', 'k00003']);
    expect(await keys('acme', 'big', { afterKey: 'k00049', limit: 2 })).toEqual([
      'k00051',
      'k00052',
    ]);
    expect(await keys('acme', 'big', { keyPrefix: 'k0311', limit: 20 })).toHaveLength(10);
    expect(await keys('acme', 'nope', { limit: 3 })).toEqual([]);
    // Prefixes whose range end skips the surrogates or drops a trailing U+10FFFF.
    const edge = await ensureTree(storage, 'acme', 'edge', 1);
    const edgeKeys = [
      'a\uD7FF',
      'a\uD7FFx',
      'a\uE000',
      'b\u{10FFFF}',
      'b\u{10FFFF}\u{10FFFF}',
      'c',
    ];
    await bulkInsertEntries(
      storage,
      edge.physicalTreeId,
      edgeKeys.map((key, i) => ({
        key,
        valueJson: '1',
        tombstone: false,
        sequence: i + 1,
        schemaVersion: 0,
        updatedAt: 1,
      })),
    );
    expect(await keys('acme', 'edge', { keyPrefix: 'a\uD7FF', limit: 10 })).toEqual([
      'a\uD7FF',
      'a\uD7FFx',
    ]);
    expect(await keys('acme', 'edge', { keyPrefix: 'b\u{10FFFF}', limit: 10 })).toEqual([
      'b\u{10FFFF}',
      'b\u{10FFFF}\u{10FFFF}',
    ]);
    expect(await keys('initech', 'big', { limit: 3 })).toEqual([]);
  });

  it.each(PAGES)(
    'reads the page %o through the (tree, key) index with no scan and no sort',
    async (page) => {
      for (const [tenant, name] of [
        ['acme', 'big'],
        ['acme', 'small'],
      ] as const) {
        const query = liveEntriesPage(storage, tenant, name, page).compile();
        if (dialect === 'postgres') expectPostgresIndexWalk(await explainPostgres(query));
        else expectSqliteIndexWalk(await explainSqlite(query));
      }
    },
  );

  async function explainPostgres(query: CompiledQuery): Promise<PlanNode> {
    const result = await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!plan) throw new Error('EXPLAIN returned no plan');
    return plan;
  }

  async function explainSqlite(query: CompiledQuery): Promise<string[]> {
    const result = await storage.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row.detail);
  }
});

/** A node of PostgreSQL's EXPLAIN (FORMAT JSON), with the fields asserted on. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

function expectPostgresIndexWalk(plan: PlanNode): void {
  const nodes = nodesOf(plan);
  const summary = nodes.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''}`.trim());
  // A Limit on top of an index walk of entries: the page ends the scan.
  expect(plan['Node Type'], summary.join(' / ')).toBe('Limit');
  const entryScans = nodes.filter((n) => n['Relation Name'] === 'entries');
  expect(entryScans, summary.join(' / ')).toHaveLength(1);
  expect(['Index Scan', 'Index Only Scan']).toContain(entryScans[0]?.['Node Type']);
  expect(entryScans[0]?.['Index Name']).toBe('entries_pk');
  expect(summary.filter((s) => /Sort|Hash|Seq Scan entries/.test(s))).toEqual([]);
}

function expectSqliteIndexWalk(details: string[]): void {
  const entryLines = details.filter((d) => /\bentries\b/.test(d));
  expect(entryLines, details.join(' / ')).toHaveLength(1);
  expect(entryLines[0]).toMatch(
    /^SEARCH entries USING INDEX sqlite_autoindex_entries_1 \(physical_tree_id=\?/,
  );
  expect(details.filter((d) => /TEMP B-TREE|^SCAN entries/.test(d))).toEqual([]);
}
