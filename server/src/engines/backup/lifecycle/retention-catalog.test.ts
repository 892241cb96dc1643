import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogColumns } from './retention-catalog.js';

// f1 ← i1 ← i2 is one chain; j1 rests on f1 too (a branch: its base is not the backup before
// it); k1's base is outside the scope; a and b share a time.
const rows: Array<[id: string, at: number, base: string, set: string]> = [
  ['f1', 100, '', ''],
  ['i1', 200, 'f1', 'set_1'],
  ['i2', 300, 'i1', ''],
  ['j1', 400, 'f1', ''],
  ['k1', 500, 'elsewhere', ''],
  ['a', 600, '', ''],
  ['b', 600, '', ''],
];

function columnsOf(list: typeof rows): CatalogColumns {
  return {
    ids: list.map((r) => r[0]),
    createdAt: list.map((r) => r[1]),
    baseIds: list.map((r) => r[2]),
    setIds: list.map((r) => r[3]),
    byteSizes: list.map((r) => r[1] / 100),
    protections: new Map([
      ['i1', { by: 'alice', reason: 'hold' }],
      ['gone', { by: 'bob', reason: '' }],
    ]),
  };
}

describe('retention catalog', () => {
  it('is newest first (equal times by id, descending) whatever the input order', () => {
    const reversed = [...rows].reverse();
    const shuffled = [rows[3]!, rows[0]!, rows[6]!, rows[2]!, rows[5]!, rows[1]!, rows[4]!];
    for (const input of [rows, reversed, shuffled]) {
      const catalog = buildCatalog(columnsOf(input));
      expect(catalog.ids).toEqual(['b', 'a', 'k1', 'j1', 'i2', 'i1', 'f1']);
      expect([...catalog.createdAt]).toEqual([600, 600, 500, 400, 300, 200, 100]);
      expect([...catalog.byteSizes]).toEqual([6, 6, 5, 4, 3, 2, 1]);
      expect(catalog.setIds).toEqual([null, null, null, null, null, 'set_1', null]);
      expect([...catalog.source].map((k) => input[k]![0])).toEqual(catalog.ids);
    }
  });

  it('resolves each base to its position: the next one, one further away, or none', () => {
    const catalog = buildCatalog(columnsOf(rows));
    const baseOf = (id: string) => {
      const b = catalog.base[catalog.ids.indexOf(id)]!;
      return b < 0 ? null : catalog.ids[b];
    };
    expect(['b', 'k1', 'j1', 'i2', 'i1', 'f1'].map(baseOf)).toEqual([
      null,
      null,
      'f1',
      'i1',
      'f1',
      null,
    ]);
    // A base outside the scope keeps its id (shown, and part of the fingerprint).
    expect(catalog.baseIds[catalog.ids.indexOf('k1')]).toBe('elsewhere');
  });

  it('keeps the protections of its own backups, by position', () => {
    const catalog = buildCatalog(columnsOf(rows));
    expect([...catalog.protections]).toEqual([
      [catalog.ids.indexOf('i1'), { by: 'alice', reason: 'hold' }],
    ]);
  });
});
