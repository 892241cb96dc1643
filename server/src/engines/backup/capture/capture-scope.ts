import {
  countEntryLines,
  streamEntryLines,
  type EntryLineRange,
} from '../../../storage/data/entry-lines.js';
import { resolveTree, type TreeDb } from '../../../storage/data/tree-store.js';
import { notFound } from '../../errors.js';
import { createEventLoopYielder } from '../../event-loop-yield.js';
import { ContentDigest } from './content-digest.js';
import { createReadPacer } from './read-pacer.js';
import { digestOfScope } from './scope-digest.js';
import {
  EncodedLineSplitter,
  type ArtifactStore,
  type WrittenArtifact,
} from '../artifacts/index.js';

/** One scope to capture inside a snapshot. */
export interface ScopePlan {
  tenant: string;
  backupId: string;
  treeName: string;
  keyPrefix: string;
  /** Incremental: capture only sequence > fromSequence (tombstones included). */
  fromSequence: number | null;
  pageSize: number;
  /** The operator's throttle; 0 or absent: unpaced. */
  maxEntriesPerSecond?: number | undefined;
}

/** What a scope's capture wrote (durable, not yet published). */
export interface CapturedScope {
  plan: ScopePlan;
  physicalTreeId: string;
  toSequence: number;
  artifacts: WrittenArtifact[];
  entryCount: number;
  tombstoneCount: number;
  schemaVersion: number;
  /** The scope's content digest as it stands at toSequence (content-digest.ts); null when skipped. */
  contentDigest: string | null;
}

export interface CaptureHooks {
  signal: AbortSignal;
  /** Lines read so far (entries, and tombstones of an incremental) and their encoded bytes. */
  onProgress(lines: number, bytes: number): void;
  /**
   * An incremental's second read (the scope's live entries, for its content digest): entries
   * read so far, after its lines are all read and counted.
   */
  onDigestProgress?: ((entries: number) => void) | undefined;
  /** Test seam: runs after each page is read (writers may change the tree meanwhile). */
  afterPage?: (() => Promise<void>) | undefined;
  /** Bench seam: capture without the content digest, to measure what the digest costs. */
  withoutDigest?: boolean | undefined;
}

/** The lines a capture of `plan` reads: live entries (full) or every change after the base. */
function rangeOf(plan: ScopePlan, lastSequence: number): EntryLineRange {
  return {
    toSequence: lastSequence,
    ...(plan.fromSequence !== null && { fromSequence: plan.fromSequence }),
    ...(plan.keyPrefix !== '' && { keyPrefix: plan.keyPrefix }),
    liveOnly: plan.fromSequence === null,
  };
}

/**
 * How many lines `captureScope` will read from this scope of `snapshot` (0 when the tree does
 * not exist; the capture then fails NotFound): the capture's progress total, counted before
 * reading so the console can show a percent and the time left.
 */
export async function countScopeLines(snapshot: TreeDb, plan: ScopePlan): Promise<number> {
  const tree = await resolveTree(snapshot, plan.tenant, plan.treeName);
  return tree
    ? countEntryLines(snapshot, tree.physicalTreeId, rangeOf(plan, tree.lastSequence))
    : 0;
}

/**
 * Reads one scope of `snapshot` as one stream of artifact lines the database encodes (COPY on
 * PostgreSQL) and writes it as artifacts. The snapshot point is the tree's last_sequence as the
 * snapshot sees it; the whole stream is read in that snapshot, so an entry overwritten during
 * the capture keeps its old value here (DESIGN.md §5).
 * A full capture keeps live entries only (it restores into an empty tree); an incremental keeps
 * tombstones too, so a restore deletes what was deleted after its base.
 */
export async function captureScope(
  snapshot: TreeDb,
  artifacts: ArtifactStore,
  plan: ScopePlan,
  hooks: CaptureHooks,
  resolveCheck?: (physicalTreeId: string) => void,
): Promise<CapturedScope> {
  const tree = await resolveTree(snapshot, plan.tenant, plan.treeName);
  if (!tree) throw notFound(`tree ${plan.treeName} does not exist`);
  resolveCheck?.(tree.physicalTreeId);
  const writer = artifacts.openWriter(plan.tenant, plan.backupId, { signal: hooks.signal });
  let entryCount = 0;
  let tombstoneCount = 0;
  let schemaVersion = 0;
  let bytes = 0;
  const yieldToOtherCalls = createEventLoopYielder();
  const pace = createReadPacer(plan.maxEntriesPerSecond ?? 0, hooks.signal);
  const splitter = new EncodedLineSplitter();
  const isFull = plan.fromSequence === null;
  // A full capture reads exactly the scope's live entries: it hashes each line once as it
  // passes. An incremental reads changes only; its digest is recomputed below.
  const fullDigest = isFull && !hooks.withoutDigest ? new ContentDigest() : undefined;
  // The database encodes the lines and this process only compresses (zlib on the libuv pool)
  // and hashes them; reading the next chunk overlaps with both. A "page" (page_size entries) is
  // the unit of progress and of the afterPage seam.
  let nextPage = plan.pageSize;
  const lines = streamEntryLines(
    snapshot,
    tree.physicalTreeId,
    rangeOf(plan, tree.lastSequence),
    plan.pageSize,
  );
  try {
    for await (const chunk of lines) {
      if (hooks.signal.aborted) break;
      const run = splitter.push(chunk);
      if (!run) continue;
      // Hashed before the writer takes the bytes (it may hand them to compression workers).
      fullDigest?.addEncodedLines(run.bytes);
      await writer.appendEncoded(run);
      entryCount += run.entries;
      tombstoneCount += run.tombstones;
      schemaVersion = Math.max(schemaVersion, run.maxSchemaVersion);
      bytes += run.bytes.length;
      // entryCount counts every line, a tombstone included (tombstoneCount is the share of
      // them): adding the two counted each deletion twice, and an incremental with deletions
      // ended past its total ("40 of 35 entries").
      hooks.onProgress(entryCount, bytes);
      for (; entryCount >= nextPage; nextPage += plan.pageSize) await hooks.afterPage?.();
      await yieldToOtherCalls();
      await pace(entryCount);
    }
    if (!hooks.signal.aborted) splitter.end();
    const digest =
      fullDigest ??
      (hooks.withoutDigest || hooks.signal.aborted
        ? undefined
        : await digestOfScope(
            snapshot,
            tree.physicalTreeId,
            { toSequence: tree.lastSequence, keyPrefix: plan.keyPrefix },
            {
              signal: hooks.signal,
              // The operator's throttle spares the live database: this read counts too.
              afterChunk: digestPacer(plan, hooks),
            },
          ));
    const written = await writer.finish();
    return {
      plan,
      physicalTreeId: tree.physicalTreeId,
      toSequence: tree.lastSequence,
      artifacts: written,
      entryCount,
      tombstoneCount,
      schemaVersion,
      contentDigest: digest ? digest.toString() : null,
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** After each chunk of an incremental's digest read: its progress, then the operator's throttle. */
function digestPacer(plan: ScopePlan, hooks: CaptureHooks) {
  // The throttle spares the live database: this read counts as much as the capture's own.
  const pace = createReadPacer(plan.maxEntriesPerSecond ?? 0, hooks.signal);
  return async (entries: number) => {
    hooks.onDigestProgress?.(entries);
    await pace(entries);
  };
}
