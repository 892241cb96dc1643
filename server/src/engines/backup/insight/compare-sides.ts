import type { StoredDifference } from '../../../storage/backup/backup-comparison-store.js';
import { createBackgroundYielder, type BackgroundYielder } from '../../event-loop-yield.js';
import type { EntryCursor, SideEntry } from './entry-cursor.js';
import { sameEntry, valueOf } from './entry-line.js';
import { compareKeys } from './key-order.js';

/** How many keys ended up in each class. */
export interface ComparisonCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

export interface CompareHooks {
  /** Whose comparison it is: it steps aside for other tenants' calls (event-loop-yield.ts). */
  tenant: string;
  signal: AbortSignal;
  /** Differences are handed out in key order, at most `pageSize` at a time. */
  pageSize: number;
  onDifferences(page: StoredDifference[]): Promise<void>;
  /** Called every few thousand keys (throttled by the runner). */
  onProgress(counts: ComparisonCounts): void;
}

const CHECK_EVERY = 4096;
/** 4096 keys of a preview can take 70 ms; the yielder itself waits only once a slice has passed. */
const YIELD_EVERY = 128;

/**
 * What the "before" side holds: every entry of its state, or only the keys written since the
 * "after" side's state was taken (a live tree against the chain captured from it, see
 * comparison-runs.ts), where a key it does not hold is unchanged and a tombstone is a key the
 * state lacks.
 */
export type BeforeSide = 'whole' | 'changes';

/**
 * Walks two key-ordered sides in step (a merge join): a key only "after" is ADDED, only "before"
 * is REMOVED, on both with another value or schema version is CHANGED, else unchanged (lines
 * equal but for their sequence are compared without parsing them; see entry-line.ts). A
 * tombstone on the "before" side counts as no entry. Memory holds one page of differences plus
 * whatever the cursors buffer.
 */
export async function compareSides(
  before: EntryCursor,
  after: EntryCursor,
  hooks: CompareHooks,
  beforeSide: BeforeSide = 'whole',
): Promise<ComparisonCounts> {
  const background = createBackgroundYielder(hooks.tenant);
  try {
    return await compareLoop(before, after, hooks, beforeSide, background);
  } finally {
    background.release();
  }
}

async function compareLoop(
  before: EntryCursor,
  after: EntryCursor,
  hooks: CompareHooks,
  beforeSide: BeforeSide,
  background: BackgroundYielder,
): Promise<ComparisonCounts> {
  const counts: ComparisonCounts = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  let page: StoredDifference[] = [];
  let steps = 0;
  for (;;) {
    const b = before.current;
    const a = after.current;
    if (b === undefined && a === undefined) break;
    // Equal lines hold the same key and value (most keys of a preview): no key is compared.
    const order =
      b === undefined
        ? 1
        : a === undefined
          ? -1
          : a.line === b.line
            ? 0
            : compareKeys(b.key, a.key);
    let waitBefore: Promise<void> | undefined;
    let waitAfter: Promise<void> | undefined;
    if (order < 0 && b) {
      if (!b.tombstone) page.push(removed(counts, b));
      waitBefore = before.advance();
    } else if (order > 0 && a) {
      if (beforeSide === 'changes') counts.unchanged += 1;
      else page.push(added(counts, a));
      waitAfter = after.advance();
    } else if (a && b) {
      if (b.tombstone) {
        page.push(added(counts, a));
      } else if (a.line === b.line || sameEntry(a, b)) {
        counts.unchanged += 1;
      } else {
        counts.changed += 1;
        const beforeValue = valueOf(b);
        const afterValue = valueOf(a);
        page.push({
          key: a.key,
          change: 'CHANGED',
          beforeJson: beforeValue.valueJson,
          afterJson: afterValue.valueJson,
          beforeSchemaVersion: beforeValue.schemaVersion,
          afterSchemaVersion: afterValue.schemaVersion,
        });
      }
      waitBefore = before.advance();
      waitAfter = after.advance();
    }
    if (waitBefore || waitAfter) await Promise.all([waitBefore, waitAfter]);
    if (page.length >= hooks.pageSize) {
      hooks.signal.throwIfAborted();
      await hooks.onDifferences(page);
      page = [];
    }
    if (++steps % YIELD_EVERY === 0) await background.yield();
    if (steps % CHECK_EVERY === 0) {
      hooks.signal.throwIfAborted();
      hooks.onProgress(counts);
    }
  }
  if (page.length > 0) await hooks.onDifferences(page);
  hooks.onProgress(counts);
  return counts;
}

function removed(counts: ComparisonCounts, entry: SideEntry): StoredDifference {
  counts.removed += 1;
  const value = valueOf(entry);
  return {
    key: entry.key,
    change: 'REMOVED',
    beforeJson: value.valueJson,
    afterJson: null,
    beforeSchemaVersion: value.schemaVersion,
    afterSchemaVersion: 0,
  };
}

function added(counts: ComparisonCounts, entry: SideEntry): StoredDifference {
  counts.added += 1;
  const value = valueOf(entry);
  return {
    key: entry.key,
    change: 'ADDED',
    beforeJson: null,
    afterJson: value.valueJson,
    beforeSchemaVersion: 0,
    afterSchemaVersion: value.schemaVersion,
  };
}
