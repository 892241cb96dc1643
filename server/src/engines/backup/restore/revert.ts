import { getRestore } from '../../../storage/backup-restore-store.js';
import type { Storage } from '../../../storage/database.js';
import { revertRestoredTree } from '../../../storage/restore-install-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import type { RestoreResult } from '../backup-types.js';

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Reverts an IN_PLACE restore (DESIGN.md §3). Nothing in `response` is trusted but its operation
 * id: the stored restore supplies the physical trees, and a response whose other fields differ
 * from the stored one is refused, so a forged response can never swap a tree to a chosen id.
 */
export async function revertRestore(
  storage: Storage,
  tenant: string,
  response: RestoreResult,
  now: number,
): Promise<void> {
  if (!response.operationId) throw invalidArgument('operation_id', 'is required');
  const stored = await getRestore(storage, tenant, response.operationId);
  if (!stored) throw notFound(`restore ${response.operationId} does not exist`);
  const result = JSON.parse(stored.resultJson) as RestoreResult;
  const matches =
    response.backupId === result.backupId &&
    response.targetTreeId === result.targetTreeId &&
    response.mode === result.mode &&
    sameList(response.manifestChain, result.manifestChain) &&
    response.entriesApplied === result.entriesApplied &&
    (response.shadowPhysicalTreeId ?? '') === (result.shadowPhysicalTreeId ?? '') &&
    (response.previousPhysicalTreeId ?? '') === (result.previousPhysicalTreeId ?? '');
  if (!matches) {
    throw failedPrecondition('the restore response does not match the stored restore');
  }
  if (stored.mode !== 'IN_PLACE') {
    throw failedPrecondition(`only an IN_PLACE restore can be reverted, not ${stored.mode}`);
  }
  if (stored.revertedAt !== null) throw failedPrecondition('the restore was already reverted');
  if (stored.previousPhysicalTreeId === null) {
    throw failedPrecondition('the restore created its tree; there is nothing to revert to');
  }
  const outcome = await revertRestoredTree(storage, {
    tenant,
    treeName: stored.targetTree,
    restoredId: stored.restoredPhysicalTreeId,
    previousId: stored.previousPhysicalTreeId,
    now,
  });
  if (outcome === 'previous_gone') {
    throw failedPrecondition('the physical tree the restore replaced no longer exists');
  }
  if (outcome === 'moved') {
    throw failedPrecondition(`tree ${stored.targetTree} changed since the restore; not reverted`);
  }
}
