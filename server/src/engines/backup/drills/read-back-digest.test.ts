import { describe, expect, it } from 'vitest';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import type { Storage } from '../../../storage/database.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { digestOfTree } from '../capture/scope-digest.js';
import { digestOfScratchTree } from './read-back-digest.js';

const TENANT = 'acme';

// Values whose quoting differs most between JSON encoders: escapes, control characters, non-ASCII
// (two-, three- and four-byte UTF-8), and a JSON null value (the text "null", not SQL NULL).
const TRICKY: [string, unknown][] = [
  ['a/plain', { v: 1 }],
  ['a/with "quotes" and \\ and \n\t\u0001', 'text "escaped" \\ \u0007 é ✓ 😀'],
  ['a/ключ', [1, 2, { x: null }]],
  ['a/😀 emoji key', null],
  ['b/other', { nested: { deep: ['x', 1.5, true] } }],
  ['b/\u007f del', 'ü'],
];

/** Fills tree `t` with the tricky entries, 23 plain ones and two tombstones; its physical id. */
async function putTrickyEntries(storage: Storage): Promise<string> {
  const data = new TreeDataEngine({ storage });
  for (const [key, value] of TRICKY) await data.putEntry(TENANT, 't', key, JSON.stringify(value));
  for (let i = 0; i < 23; i++) {
    await data.putEntry(TENANT, 't', `c/${String(i).padStart(3, '0')}`, JSON.stringify({ i }));
  }
  // Tombstones are not content: no path may count them.
  await data.deleteEntry(TENANT, 't', 'c/004');
  await data.deleteEntry(TENANT, 't', 'b/other');
  const tree = await resolveTree(storage, TENANT, 't');
  if (!tree) throw new Error('no tree');
  return tree.physicalTreeId;
}

// Issue 36: a drill's read-back hashes by each database's fastest path (per-entry texts from
// SQLite, sums of SHA-256 limbs inside PostgreSQL); it must give exactly the digest the capture
// path gives for the same rows, or every drill would fail (or, worse, a wrong one pass).
describe.each(DIALECTS)("a drill's read-back digest on %s", (dialect) => {
  const freshStorage = storagePerTest(dialect);

  async function treeWithTrickyEntries() {
    const storage = await freshStorage();
    return { storage, physicalTreeId: await putTrickyEntries(storage) };
  }

  const readBack = (
    storage: Awaited<ReturnType<typeof freshStorage>>,
    physicalTreeId: string,
    keyPrefix: string,
    postgresRowsPerChunk?: number,
    expectedEntries = 0,
    middleKey?: string,
  ) => {
    const seen: number[] = [];
    const digest = withReadSnapshot(storage, (snapshot) =>
      digestOfScratchTree(snapshot, physicalTreeId, keyPrefix, {
        signal: new AbortController().signal,
        afterChunk: async (n) => {
          seen.push(n);
        },
        expectedEntries,
        middleKey,
        ...(postgresRowsPerChunk !== undefined && { postgresRowsPerChunk }),
      }),
    );
    return { digest, seen };
  };

  it('equals the capture path\u2019s digest of the whole tree and of a prefix, across chunks', async () => {
    const { storage, physicalTreeId } = await treeWithTrickyEntries();
    for (const prefix of ['', 'a/', 'c/01']) {
      const captured = (await digestOfTree(storage, TENANT, 't', prefix)).toString();
      // PostgreSQL: one statement, or chunks of 1 or 4, on one connection (no or a wrong size
      // hint) or two halves read at once (a right one, or one far too small).
      for (const rows of [undefined, 1, 4]) {
        for (const expected of [0, 2, 14, 27, 1000]) {
          const { digest, seen } = readBack(storage, physicalTreeId, prefix, rows, expected);
          const what = `prefix ${prefix} rows ${rows} expected ${expected}`;
          expect((await digest).toString(), what).toBe(captured);
          expect(seen.at(-1), what).toBe((await digest).count);
        }
      }
    }
    const whole = (await readBack(storage, physicalTreeId, '').digest).count;
    expect(whole).toBe(TRICKY.length - 1 + 23 - 1);
  });

  it('equals it wherever the caller says the middle is: inside, at the ends, outside the range', async () => {
    const { storage, physicalTreeId } = await treeWithTrickyEntries();
    for (const prefix of ['', 'c/01']) {
      const captured = (await digestOfTree(storage, TENANT, 't', prefix)).toString();
      for (const middle of ['', 'a/', 'c/010', 'c/0105', 'c/019', 'zzz', '\u{10FFFF}']) {
        const { digest } = readBack(storage, physicalTreeId, prefix, 1, 27, middle);
        expect((await digest).toString(), `prefix ${prefix} middle ${middle}`).toBe(captured);
      }
    }
  });

  it('moves when a stored value changes under it', async () => {
    const { storage, physicalTreeId } = await treeWithTrickyEntries();
    const before = (await readBack(storage, physicalTreeId, '').digest).toString();
    await new TreeDataEngine({ storage }).putEntry(TENANT, 't', 'c/010', JSON.stringify({ i: 11 }));
    const after = (await readBack(storage, physicalTreeId, '').digest).toString();
    expect(after).not.toBe(before);
    expect(after).toBe((await digestOfTree(storage, TENANT, 't')).toString());
  });

  it('stops at an abort', async () => {
    const { storage, physicalTreeId } = await treeWithTrickyEntries();
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(
      withReadSnapshot(storage, (snapshot) =>
        digestOfScratchTree(snapshot, physicalTreeId, '', {
          signal: abort.signal,
          afterChunk: async () => {},
          expectedEntries: 27,
          postgresRowsPerChunk: 4,
        }),
      ),
    ).rejects.toThrow('cancelled');
  });
});

// On SQLite an unthrottled drill of a large tree reads back on worker threads, each with its own
// connection and a slice of the range cut by row count: any slicing must give the same digest.
describe("a drill's read-back digest on SQLite worker threads", () => {
  const freshStorage = storagePerTest('sqlite');

  it('equals the capture path\u2019s digest for any number of workers and any size hint', async () => {
    const storage = await freshStorage();
    const data = new TreeDataEngine({ storage });
    const physicalTreeId = await putTrickyEntries(storage);
    const file = storage.sqliteFile!;
    const viaWorkers = (prefix: string, workers: number, expectedEntries: number) =>
      withReadSnapshot(storage, (snapshot) =>
        digestOfScratchTree(snapshot, physicalTreeId, prefix, {
          signal: new AbortController().signal,
          afterChunk: () => Promise.reject(new Error('the workers are not paced')),
          expectedEntries,
          sqliteWorkers: { file, workers },
        }),
      );
    for (const prefix of ['', 'a/', 'c/01', 'none/']) {
      const captured = (await digestOfTree(storage, TENANT, 't', prefix)).toString();
      for (const workers of [1, 2, 3]) {
        for (const expected of [0, 2, 14, 27, 1000]) {
          const what = `prefix ${prefix} workers ${workers} expected ${expected}`;
          expect((await viaWorkers(prefix, workers, expected)).toString(), what).toBe(captured);
        }
      }
    }
    await data.putEntry(TENANT, 't', 'c/010', JSON.stringify({ i: 11 }));
    expect((await viaWorkers('', 2, 28)).toString()).toBe(
      (await digestOfTree(storage, TENANT, 't')).toString(),
    );
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(
      withReadSnapshot(storage, (snapshot) =>
        digestOfScratchTree(snapshot, physicalTreeId, '', {
          signal: abort.signal,
          afterChunk: async () => {},
          expectedEntries: 27,
          sqliteWorkers: { file, workers: 2 },
        }),
      ),
    ).rejects.toThrow('cancelled');
  });
});
