import { readPhysicalEntries } from '../../../storage/physical-tree-store.js';
import { resolveTree, type TreeDb } from '../../../storage/tree-store.js';
import { notFound } from '../../errors.js';
import { createEventLoopYielder } from '../../event-loop-yield.js';
import type { ArtifactRecord, ArtifactStore, WrittenArtifact } from '../artifacts/index.js';

/** One scope to capture inside a snapshot. */
export interface ScopePlan {
  tenant: string;
  backupId: string;
  treeName: string;
  keyPrefix: string;
  /** Incremental: capture only sequence > fromSequence (tombstones included). */
  fromSequence: number | null;
  pageSize: number;
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
}

export interface CaptureHooks {
  signal: AbortSignal;
  onProgress(entries: number, bytes: number): void;
  /** Test seam: runs after each page is read (writers may change the tree meanwhile). */
  afterPage?: (() => Promise<void>) | undefined;
}

/**
 * Reads one scope of `snapshot` page by page and writes it as artifacts. The snapshot point is
 * the tree's last_sequence as the snapshot sees it; every page is read from the same snapshot,
 * so an entry overwritten during the capture keeps its old value here (DESIGN.md §5).
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
  try {
    let afterKey: string | undefined;
    for (;;) {
      if (hooks.signal.aborted) break;
      const page = await readPhysicalEntries(snapshot, tree.physicalTreeId, {
        ...(afterKey !== undefined && { afterKey }),
        limit: plan.pageSize,
        ...(plan.fromSequence !== null && { fromSequence: plan.fromSequence }),
        toSequence: tree.lastSequence,
        ...(plan.keyPrefix !== '' && { keyPrefix: plan.keyPrefix }),
      });
      const records: ArtifactRecord[] = [];
      for (const entry of page) {
        if (entry.tombstone && plan.fromSequence === null) continue;
        records.push({
          key: entry.key,
          valueJson: entry.tombstone ? null : entry.valueJson,
          sequence: entry.sequence,
          schemaVersion: entry.schemaVersion,
        });
        if (entry.tombstone) tombstoneCount += 1;
        schemaVersion = Math.max(schemaVersion, entry.schemaVersion);
        bytes += entry.key.length + (entry.valueJson?.length ?? 0);
      }
      if (records.length > 0) await writer.append(records);
      entryCount += records.length;
      hooks.onProgress(entryCount, bytes);
      if (page.length < plan.pageSize) break;
      afterKey = page[page.length - 1]?.key;
      await hooks.afterPage?.();
      await yieldToOtherCalls();
    }
    const written = await writer.finish();
    return {
      plan,
      physicalTreeId: tree.physicalTreeId,
      toSequence: tree.lastSequence,
      artifacts: written,
      entryCount,
      tombstoneCount,
      schemaVersion,
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
