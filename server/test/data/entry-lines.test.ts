import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { storagePerTest } from '../support/storage-per-test.js';
import { encodeRecord } from '../../src/engines/backup/artifacts/ndjson-codec.js';
import { withReadSnapshot } from '../../src/storage/backup/backup-snapshot.js';
import type { Storage } from '../../src/storage/database.js';
import { countEntryLines, streamEntryLines, type EntryLineRange } from '../../src/storage/data/entry-lines.js';
import {
  bulkInsertEntries,
  createPhysicalTree,
  type EntryToInsert,
} from '../../src/storage/data/physical-tree-store.js';

// Keys and values whose JSON quoting is easy to get wrong: every escape JSON has, control
// characters, non-ASCII, astral characters, separators JavaScript treats specially.
const AWKWARD = [
  'plain',
  'quote " and backslash \\',
  'tab\tnewline\ncarriage\rbackspace\bformfeed\f',
  `controls ${String.fromCharCode(1, 2, 0x1f, 0x7f)}`,
  'unicode é ü 漢字 😀',
  'separators \u2028\u2029',
  'csv-ish ,;"\u0001\u0002',
];

const entries: EntryToInsert[] = AWKWARD.flatMap((text, i) => [
  {
    key: `k${i}/${text}`,
    valueJson: JSON.stringify({ text, n: i }),
    tombstone: false,
    sequence: 10 + i,
    schemaVersion: i % 3,
    updatedAt: 1,
  },
  {
    key: `t${i}/${text}`,
    valueJson: null,
    tombstone: true,
    sequence: 100 + i,
    schemaVersion: 1,
    updatedAt: 1,
  },
]);

describe.each(DIALECTS)('streamEntryLines on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  let storage: Storage;
  let tree: string;
  beforeEach(async () => {
    storage = await freshStorage();
    tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 'lines', now: 1 });
    await bulkInsertEntries(storage, tree, entries);
  });

  const read = (range: EntryLineRange, rowsPerChunk = 3) =>
    withReadSnapshot(storage, async (snapshot) => {
      const chunks: Buffer[] = [];
      for await (const chunk of streamEntryLines(snapshot, tree, range, rowsPerChunk)) {
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString('utf8');
    });

  const expected = (keep: (e: EntryToInsert) => boolean) =>
    entries
      .filter(keep)
      .sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)))
      .map((e) =>
        encodeRecord({
          key: e.key,
          valueJson: e.tombstone ? null : e.valueJson,
          sequence: e.sequence,
          schemaVersion: e.schemaVersion,
        }),
      )
      .join('');

  it('writes exactly what encodeRecord writes, in byte order of key, live entries only for a full read', async () => {
    expect(await read({ toSequence: 1000, liveOnly: true })).toBe(expected((e) => !e.tombstone));
  });

  it('keeps tombstones and honours the sequence range and the key prefix', async () => {
    expect(await read({ fromSequence: 12, toSequence: 103, liveOnly: false }, 1)).toBe(
      expected((e) => e.sequence > 12 && e.sequence <= 103),
    );
    expect(await read({ toSequence: 1000, keyPrefix: 't1/', liveOnly: false })).toBe(
      expected((e) => e.key.startsWith('t1/')),
    );
    expect(await read({ toSequence: 1000, keyPrefix: 'nothing', liveOnly: false })).toBe('');
  });

  it("counts exactly the lines the stream yields, for a capture's progress total", async () => {
    const ranges: EntryLineRange[] = [
      { toSequence: 1000, liveOnly: true },
      { fromSequence: 12, toSequence: 103, liveOnly: false },
      { toSequence: 1000, keyPrefix: 't1/', liveOnly: false },
      { toSequence: 1000, keyPrefix: "k1/quote ' %_", liveOnly: true },
    ];
    for (const range of ranges) {
      const text = await read(range);
      const lines = text === '' ? 0 : text.trimEnd().split('\n').length;
      const counted = await withReadSnapshot(storage, (snapshot) =>
        countEntryLines(snapshot, tree, range),
      );
      expect(counted, JSON.stringify(range)).toBe(lines);
    }
    expect(await read({ toSequence: 1000, liveOnly: true })).not.toBe('');
  });
});
