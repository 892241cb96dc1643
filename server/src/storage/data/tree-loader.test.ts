import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import {
  createPhysicalTree,
  getPhysicalTree,
  readPhysicalEntries,
  type EntryToInsert,
} from './physical-tree-store.js';
import { openHiddenTreeLoader } from './tree-loader.js';

const entry = (key: string, sequence: number, valueJson: string | null): EntryToInsert => ({
  key,
  valueJson,
  tombstone: valueJson === null,
  sequence,
  schemaVersion: 3,
  updatedAt: 77,
});

// Text COPY's text format must escape: backslashes, tabs, newlines, carriage returns, and a
// value that reads like its null marker.
const AWKWARD = [
  entry('a\\b', 5, '"back\\\\slash \\\\N"'),
  entry('tab\there', 9, '{"k":"tab\\t"}'),
  entry('new\nline\r', 2, '"\\\\N"'),
  entry('gone', 4, null),
  entry('\\N', 7, '1'),
];

describe.each(DIALECTS)('openHiddenTreeLoader on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  let storage: Storage;
  let tree: string;
  beforeEach(async () => {
    storage = await freshStorage();
    tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 'load', now: 1 });
  });

  const stored = () => readPhysicalEntries(storage, tree, { limit: 100 });

  it('stores every entry exactly, in batches, and raises last_sequence to the highest', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    await loader.write(AWKWARD.slice(0, 2));
    await loader.write(AWKWARD.slice(2));
    await loader.finish();
    const byKey = (a: { key: string }, b: { key: string }) =>
      Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
    expect(await stored()).toEqual([...AWKWARD].sort(byKey));
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(9);
  });

  it('a key given twice fails the load', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    const load = async () => {
      await loader.write([entry('same', 1, '1')]);
      await loader.write([entry('same', 2, '2')]);
      await loader.finish();
    };
    await expect(load()).rejects.toThrow();
    await loader.abort(new Error('failed'));
    if (dialect === 'postgres') expect(await stored()).toEqual([]);
    // The storage is still usable: no connection was left in the middle of a COPY.
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(0);
  });

  it('abort leaves nothing of the load on PostgreSQL, and the storage usable', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    await loader.write(AWKWARD);
    await loader.abort(new Error('cancelled'));
    await loader.abort(new Error('twice'));
    if (dialect === 'postgres') expect(await stored()).toEqual([]);
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(0);
  });
});
