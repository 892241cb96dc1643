import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import { countLiveEntries, getPhysicalTree } from '../../../storage/data/physical-tree-store.js';
import {
  writesSinceRestore,
  type RevertibleRestore,
} from '../../../storage/backup/restore-revert-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { failedPrecondition } from '../../errors.js';
import type { OperationContext } from '../../operations/index.js';
import { revertibleRestore, storedRestore } from '../restore/revert.js';
import { compareSides } from './compare-sides.js';
import { progressOf, withDifferences, type ComparisonRunDeps } from './comparison-runs.js';
import type { ComparisonReport, RevertPreviewRequest } from './comparison-types.js';
import type { EntryCursor } from './entry-cursor.js';
import { openTreeCursor, type ClosableCursor } from './tree-cursor.js';

/**
 * The stored restore `restoreOperationId` if RevertRestore could still undo it as the database
 * stands in `handle`: an IN_PLACE restore not yet reverted, whose tree still points at the
 * restored physical tree and whose replaced tree still exists. Otherwise NotFound or
 * FailedPrecondition, with the reason RevertRestore itself would give.
 */
export async function revertibleNow(
  handle: TreeDb,
  tenant: string,
  restoreOperationId: string,
): Promise<RevertibleRestore & { treeSequence: number }> {
  const stored = await storedRestore(handle, tenant, restoreOperationId, 'restore_operation_id');
  const restore = revertibleRestore(stored);
  const tree = await resolveTree(handle, tenant, restore.targetTree);
  if (tree?.physicalTreeId !== restore.restoredPhysicalTreeId) {
    throw failedPrecondition(
      `tree ${restore.targetTree} no longer holds what restore ${restoreOperationId} installed ` +
        '(a later restore or revert replaced it); only the latest restore can be reverted',
    );
  }
  if (!(await getPhysicalTree(handle, restore.previousPhysicalTreeId))) {
    throw failedPrecondition('the physical tree the restore replaced no longer exists');
  }
  return { ...restore, treeSequence: tree.lastSequence };
}

/** A cursor that counts the entries it moved past, for progress. */
function counting(cursor: ClosableCursor, tally: { read: number }): EntryCursor {
  return {
    get current() {
      return cursor.current;
    },
    advance() {
      tally.read += 1;
      return cursor.advance();
    },
  };
}

/**
 * A revert preview: in one snapshot, the tree as it is (the restored physical tree with every
 * write made since the restore) is the "before" side and the physical tree the restore replaced,
 * which a revert swaps back in, the "after" side; both whole, live entries only. So REMOVED keys
 * are what the revert removes, CHANGED what it changes back, ADDED what it brings back; and the
 * writes since the restore, which the revert discards, are counted in the same snapshot.
 */
export async function runRevertPreview(
  deps: ComparisonRunDeps,
  ctx: OperationContext<RevertPreviewRequest>,
): Promise<ComparisonReport> {
  const { tenant, signal, request } = ctx;
  return withDifferences(deps, ctx, (store) =>
    withReadSnapshot(deps.storage, async (snapshot) => {
      const restore = await revertibleNow(snapshot, tenant, request.restoreOperationId);
      const writes = await writesSinceRestore(snapshot, restore);
      const total =
        (await countLiveEntries(snapshot, restore.restoredPhysicalTreeId)) +
        (await countLiveEntries(snapshot, restore.previousPhysicalTreeId));
      const open = (physicalTreeId: string) =>
        openTreeCursor(snapshot, { physicalTreeId, prefix: '' }, deps.treePageSize, signal);
      const now = await open(restore.restoredPhysicalTreeId);
      let back: ClosableCursor;
      try {
        back = await open(restore.previousPhysicalTreeId);
      } catch (error) {
        await now.close();
        throw error;
      }
      const tally = { read: 0 };
      try {
        const counts = await compareSides(counting(now, tally), counting(back, tally), {
          tenant,
          signal,
          pageSize: deps.pageSize,
          onDifferences: store,
          onProgress: progressOf(ctx, total, () => tally.read),
        });
        return {
          operationId: ctx.operationId,
          kind: 'REVERT_PREVIEW',
          treeId: restore.targetTree,
          keyPrefix: '',
          fromChain: [],
          toChain: [],
          counts,
          physicalTreeId: restore.restoredPhysicalTreeId,
          treeSequence: restore.treeSequence,
          comparedAt: deps.clock(),
          restoreOperationId: request.restoreOperationId,
          writesSinceRestore: writes,
        };
      } finally {
        await back.close();
        await now.close();
      }
    }),
  );
}
