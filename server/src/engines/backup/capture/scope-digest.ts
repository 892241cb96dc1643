import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import type { Storage } from '../../../storage/database.js';
import { streamEntryLines } from '../../../storage/data/entry-lines.js';
import { resolveTree, type TreeDb } from '../../../storage/data/tree-store.js';
import { notFound } from '../../errors.js';
import { createEventLoopYielder } from '../../event-loop-yield.js';
import { EncodedLineSplitter } from '../artifacts/index.js';
import { ContentDigest } from './content-digest.js';

/** Lines a chunk of the digest's read holds on SQLite (PostgreSQL's COPY chunks itself). */
const ROWS_PER_CHUNK = 1000;

/** Which live entries of a physical tree a digest covers. */
export interface DigestRange {
  /** The snapshot point (entries written later are not seen); absent: all the snapshot sees. */
  toSequence?: number;
  keyPrefix: string;
}

/**
 * The content digest of the live entries of one physical tree in `snapshot`, read through the
 * same line stream a full capture reads (so it is the digest a full capture at that point would
 * record). An incremental capture calls it in its own snapshot: the incremental's artifact holds
 * new values and tombstones but not the values they replaced, so the scope's digest after the
 * chain is recomputed from the state the capture reads rather than patched from the base's.
 */
export async function digestOfScope(
  snapshot: TreeDb,
  physicalTreeId: string,
  range: DigestRange,
  options: {
    signal?: AbortSignal | undefined;
    /** Called with the entries read so far after each chunk (progress, a read throttle). */
    afterChunk?: ((entriesSoFar: number) => Promise<void>) | undefined;
  } = {},
): Promise<ContentDigest> {
  const digest = new ContentDigest();
  const splitter = new EncodedLineSplitter();
  const yieldToOtherCalls = createEventLoopYielder();
  const lines = streamEntryLines(
    snapshot,
    physicalTreeId,
    {
      liveOnly: true,
      ...(range.toSequence !== undefined && { toSequence: range.toSequence }),
      ...(range.keyPrefix !== '' && { keyPrefix: range.keyPrefix }),
    },
    ROWS_PER_CHUNK,
  );
  let read = 0;
  for await (const chunk of lines) {
    options.signal?.throwIfAborted();
    const run = splitter.push(chunk);
    if (run) {
      digest.addEncodedLines(run.bytes);
      read += run.entries;
    }
    await yieldToOtherCalls();
    await options.afterChunk?.(read);
  }
  splitter.end();
  return digest;
}

/**
 * The content digest of a tree's live entries (under `keyPrefix`) as the database holds them
 * now, in one snapshot: what a restore drill compares with the digest its backup recorded at
 * capture (a restored chain must give back exactly the captured content).
 */
export async function digestOfTree(
  storage: Storage,
  tenant: string,
  treeName: string,
  keyPrefix = '',
  signal?: AbortSignal,
): Promise<ContentDigest> {
  return withReadSnapshot(storage, async (snapshot) => {
    const tree = await resolveTree(snapshot, tenant, treeName);
    if (!tree) throw notFound(`tree ${treeName} does not exist`);
    return digestOfScope(snapshot, tree.physicalTreeId, { keyPrefix }, { signal });
  });
}
