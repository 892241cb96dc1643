import {
  postgresHashSums,
  sqliteEntryDigestTexts,
} from '../../../storage/data/entry-digest-reads.js';
import { sqliteHashSums, sqliteHashSumsCanRead } from '../../../storage/data/sqlite-hash-sums.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { createEventLoopYielder } from '../../event-loop-yield.js';
import { ContentDigest } from '../capture/content-digest.js';

/** Entry texts a chunk of SQLite's read-back holds (its steps are bounded in time anyway). */
const SQLITE_ROWS_PER_CHUNK = 1000;

/**
 * Entries PostgreSQL hashes and sums per statement: ≈0.1 s of its work, so a cancel, the
 * throttle and progress come between statements.
 */
const POSTGRES_ROWS_PER_CHUNK = 50_000;

/** What a SQLite text of a live entry whose value is SQL NULL ends with (capture skips it). */
const NULL_VALUE_TAIL = ',"valueJson":null';

export interface ReadBackOptions {
  signal: AbortSignal;
  /** Called with the entries read so far after each chunk (the drill's throttle). */
  afterChunk: (entriesSoFar: number) => Promise<void>;
  /** About how many entries the tree holds (PostgreSQL reads it in two halves); 0: unknown. */
  expectedEntries: number;
  /**
   * A key near the middle of the tree, where PostgreSQL splits it into its two halves (any key
   * is correct, a middle one keeps the halves even); without it PostgreSQL finds the middle
   * itself, a walk of half the key index (0.2–0.3 s a million entries).
   */
  middleKey?: string | undefined;
  /** PostgreSQL's entries per statement (tests make it small to cross chunks). */
  postgresRowsPerChunk?: number;
  /**
   * SQLite: read and hash on this many worker threads, each with its own connection to `file`
   * (storage/data/sqlite-hash-sums.ts), instead of in steps on the event loop. Only for an
   * unthrottled read-back (the workers do not wait for `afterChunk`) of a tree nobody writes.
   */
  sqliteWorkers?: { file: string; workers: number } | undefined;
}

/**
 * The content digest of a drill's scratch tree as the database holds it after the restore: the
 * same digest a full capture of the tree would record (content-digest.ts), recomputed from the
 * rows, in `snapshot` (withReadSnapshot's handle). The capture path (digestOfScope) frames
 * every row as an artifact line and cuts it again; a drill needs only the hashes, so each
 * database builds just the hashed text. PostgreSQL hashes and sums in the database
 * (postgresHashSums), a chunk a statement on two backends at once. SQLite either reads and
 * hashes on worker threads (sqliteHashSums: the unthrottled drill of a large tree) or hands the
 * texts over in bounded steps that this thread hashes (a throttled drill, a small tree).
 */
export async function digestOfScratchTree(
  snapshot: TreeDb,
  physicalTreeId: string,
  keyPrefix: string,
  options: ReadBackOptions,
): Promise<ContentDigest> {
  const digest = new ContentDigest();
  if (snapshot.dialect === 'postgres') {
    const sums = await postgresHashSums(snapshot, physicalTreeId, keyPrefix, {
      rowsPerChunk: options.postgresRowsPerChunk ?? POSTGRES_ROWS_PER_CHUNK,
      expectedEntries: options.expectedEntries,
      middleKey: options.middleKey,
      afterChunk: async (read) => {
        options.signal.throwIfAborted();
        await options.afterChunk(read);
      },
    });
    digest.addLimbSums(sums.limbSums, sums.entries);
    return digest;
  }
  if (options.sqliteWorkers && sqliteHashSumsCanRead(keyPrefix)) {
    const sums = await sqliteHashSums(physicalTreeId, keyPrefix, {
      file: options.sqliteWorkers.file,
      workers: options.sqliteWorkers.workers,
      expectedRows: options.expectedEntries,
      signal: options.signal,
    });
    digest.addLimbSums(sums.limbSums, sums.entries);
    return digest;
  }
  const yieldToOtherCalls = createEventLoopYielder();
  const texts = sqliteEntryDigestTexts(snapshot, physicalTreeId, keyPrefix, SQLITE_ROWS_PER_CHUNK);
  for await (const chunk of texts) {
    options.signal.throwIfAborted();
    for (const text of chunk) {
      // A live entry with an SQL NULL value reads as a tombstone's line to the capture,
      // which leaves it out of the digest: left out here alike.
      if (!text.endsWith(NULL_VALUE_TAIL)) digest.addEntryText(text);
    }
    await yieldToOtherCalls();
    await options.afterChunk(digest.count);
  }
  return digest;
}
