import { getRestore, type RestoreRow } from '../../../storage/backup-restore-store.js';
import type { Storage } from '../../../storage/database.js';
import type { TreeDb } from '../../../storage/tree-db.js';
import {
  revertRestoredTree,
  type RevertibleRestore,
} from '../../../storage/restore-revert-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import type { RestoreResult } from '../backup-types.js';

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** "1 write was" / "3 writes were": the count a refusal and the audit record name. */
export function writesPhrase(count: number): string {
  return count === 1 ? '1 write was' : `${count} writes were`;
}

/** The restore stored under (tenant, operation id); NotFound when there is none. */
export async function storedRestore(
  storage: TreeDb,
  tenant: string,
  operationId: string,
  field = 'operation_id',
): Promise<RestoreRow> {
  if (!operationId) throw invalidArgument(field, 'is required');
  const stored = await getRestore(storage, tenant, operationId);
  if (!stored) throw notFound(`restore ${operationId} does not exist`);
  return stored;
}

/** A stored restore that a revert could still undo; FailedPrecondition saying why not. */
export function revertibleRestore(stored: RestoreRow): RevertibleRestore {
  if (stored.mode !== 'IN_PLACE') {
    throw failedPrecondition(`only an IN_PLACE restore can be reverted, not ${stored.mode}`);
  }
  if (stored.revertedAt !== null) throw failedPrecondition('the restore was already reverted');
  if (stored.previousPhysicalTreeId === null) {
    throw failedPrecondition('the restore created its tree; there is nothing to revert to');
  }
  return { ...stored, previousPhysicalTreeId: stored.previousPhysicalTreeId };
}

/** What a revert did: the tree swapped back and how many writes since the restore it dropped. */
export interface RevertOutcome {
  treeId: string;
  discardedWrites: number;
}

/**
 * Reverts an IN_PLACE restore (DESIGN.md §3). Nothing in `response` is trusted but its operation
 * id: the stored restore supplies the physical trees, and a response whose other fields differ
 * from the stored one is refused, so a forged response can never swap a tree to a chosen id.
 * Writes made to the tree since the restore are never dropped silently: with any, the revert is
 * refused unless `acknowledgedWrites` names exactly how many (the revert preview shows them).
 */
export async function revertRestore(
  storage: Storage,
  tenant: string,
  response: RestoreResult,
  acknowledgedWrites: number | undefined,
  now: number,
): Promise<RevertOutcome> {
  if (acknowledgedWrites !== undefined && acknowledgedWrites < 0) {
    throw invalidArgument('acknowledged_writes_since_restore', 'must not be negative');
  }
  const stored = await storedRestore(storage, tenant, response.operationId);
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
  const restore = revertibleRestore(stored);
  const outcome = await revertRestoredTree(storage, { restore, acknowledgedWrites, now });
  const tree = stored.targetTree;
  switch (outcome.status) {
    case 'previous_gone':
      throw failedPrecondition('the physical tree the restore replaced no longer exists');
    case 'moved':
      throw failedPrecondition(`tree ${tree} changed since the restore; not reverted`);
    case 'unacknowledged_writes': {
      const made = `${writesPhrase(outcome.writes)} made to tree ${tree} since the restore`;
      const them = outcome.writes === 1 ? 'it' : 'them';
      throw failedPrecondition(
        acknowledgedWrites === undefined
          ? `${made}; preview the revert and acknowledge to discard ${them}`
          : `${made}, not the ${acknowledgedWrites} acknowledged; preview the revert again`,
      );
    }
    case 'reverted':
      return { treeId: tree, discardedWrites: outcome.discardedWrites };
  }
}
