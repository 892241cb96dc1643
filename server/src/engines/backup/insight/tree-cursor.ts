import { streamEntryLineBatches } from '../../../storage/data/entry-lines.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { BatchCursor, type EntryCursor, type SideEntry } from './entry-cursor.js';
import { liveEntryOf, sideEntryOf } from './entry-line.js';

/** An entry cursor over a stream that must be ended when the comparison stops early. */
export interface ClosableCursor extends EntryCursor {
  /** Ends the read (frees PostgreSQL's COPY connection or SQLite's statement). */
  close(): Promise<void>;
}

/** Which part of a physical tree a tree cursor reads. */
export interface TreeCursorRange {
  /** Null: the tree does not exist (the cursor is empty). */
  physicalTreeId: string | null;
  prefix: string;
  /**
   * Read only the entries written after this sequence, tombstones included (what an incremental
   * backup from it would hold); absent: every live entry.
   */
  changedAfter?: number | undefined;
}

/**
 * The entries of a physical tree under a prefix, in key order, as the artifact lines a capture
 * would write (one streaming read in the caller's snapshot, as a capture reads), so an unchanged
 * entry's line equals the backup's and needs no parsing. Batches are whatever the stream
 * delivers (`pageSize` rows per chunk on SQLite, COPY's chunks on PostgreSQL).
 */
export async function openTreeCursor(
  handle: TreeDb,
  range: TreeCursorRange,
  pageSize: number,
  signal: AbortSignal,
): Promise<ClosableCursor> {
  const { physicalTreeId } = range;
  const source =
    physicalTreeId === null
      ? emptyPages()
      : livePages(handle, { ...range, physicalTreeId }, pageSize, signal);
  const cursor = new BatchCursor<SideEntry>(source);
  const close = async () => {
    await source.return(undefined).catch(() => undefined);
  };
  try {
    await cursor.open();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    get current() {
      return cursor.current;
    },
    advance: () => cursor.advance(),
    close,
  };
}

async function* emptyPages(): AsyncGenerator<SideEntry[]> {
  // A tree that does not exist yet: every key of the backup would be added.
}

async function* livePages(
  handle: TreeDb,
  range: TreeCursorRange & { physicalTreeId: string },
  pageSize: number,
  signal: AbortSignal,
): AsyncGenerator<SideEntry[]> {
  const changesOnly = range.changedAfter !== undefined;
  const batches = streamEntryLineBatches(
    handle,
    range.physicalTreeId,
    {
      keyPrefix: range.prefix,
      liveOnly: !changesOnly,
      ...(changesOnly && { fromSequence: range.changedAfter }),
      nullValueAsJsonNull: true,
    },
    pageSize,
  );
  // Changes can be tombstones, which the lazy live entry does not recognise.
  const entryOf = changesOnly ? sideEntryOf : liveEntryOf;
  for await (const lines of batches) {
    signal.throwIfAborted();
    yield lines.map(entryOf);
  }
}
