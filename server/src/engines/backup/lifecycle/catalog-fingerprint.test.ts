import { describe, expect, it } from 'vitest';
import { catalogFingerprint } from './catalog-fingerprint.js';
import { catalogOfCandidates, type RetentionCandidate } from './retention-catalog.js';
import { NO_RULES } from './retention-rules.js';

const scope = { treeName: 'orders', keyPrefix: '' };

function backup(id: string, createdAt: number, extra: Partial<RetentionCandidate> = {}) {
  return {
    id,
    name: `backup ${id}`,
    createdAt,
    baseBackupId: null,
    setId: null,
    byteSize: 1,
    ...extra,
  };
}

const catalog: RetentionCandidate[] = [
  backup('f1', 100),
  backup('i1', 200, { baseBackupId: 'f1' }),
  backup('i2', 300, { baseBackupId: 'i1', setId: 'set_1' }),
  backup('x1', 400, { baseBackupId: 'elsewhere' }),
];

const fingerprintOf = (list: RetentionCandidate[], rules = NO_RULES, key = scope) =>
  catalogFingerprint(key, rules, catalogOfCandidates(list));

const changed = (id: string, extra: Partial<RetentionCandidate>) =>
  catalog.map((c) => (c.id === id ? { ...c, ...extra } : c));

describe('catalog fingerprint', () => {
  const base = fingerprintOf(catalog);

  it('is the same for the same catalog, whatever order it was read in', () => {
    expect(fingerprintOf([...catalog].reverse())).toBe(base);
    // Names and sizes do not change what is kept or deleted.
    expect(fingerprintOf(changed('i1', { name: 'renamed', byteSize: 99 }))).toBe(base);
  });

  it('changes with every change of what the plan depends on', () => {
    const variants: Array<[string, string]> = [
      ['a backup added', fingerprintOf([...catalog, backup('f2', 500)])],
      ['a backup gone', fingerprintOf(catalog.slice(1))],
      ['an id', fingerprintOf(changed('f1', { id: 'f0' }))],
      ['a time', fingerprintOf(changed('i1', { createdAt: 201 }))],
      ['a base inside the scope', fingerprintOf(changed('i2', { baseBackupId: 'f1' }))],
      ['a base outside the scope', fingerprintOf(changed('x1', { baseBackupId: 'other' }))],
      ['a base inside → outside', fingerprintOf(changed('i2', { baseBackupId: 'gone' }))],
      ['a set', fingerprintOf(changed('i1', { setId: 'set_1' }))],
      ['a protection', fingerprintOf(changed('i1', { protection: { by: 'a', reason: '' } }))],
      ['the rules', fingerprintOf(catalog, { ...NO_RULES, keepLast: 1 })],
      ['the scope', fingerprintOf(catalog, NO_RULES, { ...scope, keyPrefix: 'eu/' })],
    ];
    const prints = new Set([base, ...variants.map(([, print]) => print)]);
    expect(prints.size).toBe(variants.length + 1);
  });
});
