import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { bulkInsertEntries, readPhysicalEntries } from '../data/physical-tree-store.js';
import { applyEntryChanges, countDeadLetters, type EntryChange } from './schema-entry-store.js';
import { ensureTree, putEntry } from '../data/tree-store.js';

describe.each(DIALECTS)('applyEntryChanges on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('applies a page of 2 500 changes, skips entries changed since they were read, and tombstones dead letters', async () => {
    const storage = await freshStorage();
    const tree = await ensureTree(storage, 'acme', 't', 1);
    const keys = Array.from({ length: 2_500 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    await bulkInsertEntries(
      storage,
      tree.physicalTreeId,
      keys.map((key, i) => ({
        key,
        valueJson: '{"v":1}',
        tombstone: false,
        sequence: i + 1,
        schemaVersion: 1,
        updatedAt: 1,
      })),
    );
    // Changed after the migration read it: its change must not apply.
    await putEntry(storage, {
      tenant: 'acme',
      treeName: 't',
      key: 'k00007',
      valueJson: '{"v":"user"}',
      schemaVersion: 1,
      now: 2,
    });
    const changes: EntryChange[] = keys.map((key, i) =>
      i % 10 === 9
        ? {
            kind: 'dead_letter',
            key,
            expectedSequence: i + 1,
            letter: {
              tenant: 'acme',
              treeName: 't',
              key,
              valueJson: '{"v":1}',
              reason: 'TRANSFORM_FAILED',
              errors: ['no'],
              sourceOperationId: 'op',
              schemaVersion: 1,
              deadLetteredAt: 3,
            },
          }
        : { kind: 'write', key, expectedSequence: i + 1, valueJson: '{"v":2}', schemaVersion: 2 },
    );
    const outcome = await applyEntryChanges(
      storage,
      { tenant: 'acme', treeName: 't', physicalTreeId: tree.physicalTreeId, now: 3 },
      changes,
    );
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(outcome.conflicts).toEqual(['k00007']);
    expect(outcome.applied.size).toBe(2_499);
    const rows = await readPhysicalEntries(storage, tree.physicalTreeId, { limit: 3_000 });
    const byKey = new Map(rows.map((row) => [row.key, row]));
    expect(byKey.get('k00007')).toMatchObject({ valueJson: '{"v":"user"}', schemaVersion: 1 });
    expect(byKey.get('k00000')).toMatchObject({ valueJson: '{"v":2}', schemaVersion: 2 });
    expect(byKey.get('k00009')).toMatchObject({ tombstone: true, valueJson: null });
    expect(rows.filter((row) => row.tombstone)).toHaveLength(250);
    expect(await countDeadLetters(storage, 'acme', 't')).toBe(250);
    // Every applied change got a new sequence above every sequence read.
    const changed = rows.filter((row) => row.key !== 'k00007');
    expect(Math.min(...changed.map((row) => row.sequence))).toBeGreaterThan(2_501);
    expect(new Set(changed.map((row) => row.sequence)).size).toBe(changed.length);
  });
});
