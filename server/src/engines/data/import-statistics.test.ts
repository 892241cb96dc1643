// Issue 37: an import (PutEntries batches) that writes ANALYZE_AFTER_ROWS rows leaves the planner
// with statistics of `entries`, without waiting for autovacuum (off on the test server) or, on
// SQLite, for anyone.
import { describe, expect, it } from 'vitest';
import { analyzedEntryRows } from '../../../test/support/entry-statistics.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import {
  ANALYZE_AFTER_ROWS,
  entryStatisticsSettled,
} from '../../storage/data/planner-statistics.js';
import { MAX_PUT_ENTRIES, TreeDataEngine } from './tree-data-engine.js';

const T = 'acme';

const batch = (b: number) =>
  Array.from({ length: MAX_PUT_ENTRIES }, (_, i) => ({
    key: `k${String(b * MAX_PUT_ENTRIES + i).padStart(6, '0')}`,
    valueJson: `{"i":${i}}`,
  }));

describe.each(DIALECTS)('planner statistics after an import on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('analyzes entries once PutEntries wrote the threshold of rows, and not before', async () => {
    const storage = await freshStorage();
    const engine = new TreeDataEngine({ storage });
    const batches = ANALYZE_AFTER_ROWS / MAX_PUT_ENTRIES;
    for (let b = 0; b < batches - 1; b++) await engine.putEntries(T, 'import', batch(b));
    await entryStatisticsSettled(storage);
    expect(await analyzedEntryRows(storage)).toBeUndefined();

    await engine.putEntries(T, 'import', batch(batches - 1));
    await entryStatisticsSettled(storage);
    const rows = await analyzedEntryRows(storage);
    // PostgreSQL reads a table this small whole; SQLite samples (analysis_limit) and estimates.
    if (dialect === 'postgres') expect(rows).toBe(ANALYZE_AFTER_ROWS);
    else expect(rows).toBeGreaterThan(0);
  }, 60_000);
});
