import { getRestore, type RestoreRow } from '../../../storage/backup/backup-restore-store.js';
import type { Storage } from '../../../storage/database.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import {
  revertRestoredTree,
  type RevertAcknowledgment,
  type RevertibleRestore,
} from '../../../storage/backup/restore-revert-store.js';
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
    const what = stored.mode === 'NEW_TREE' ? 'filled a new tree' : 'restored beside the tree';
    throw failedPrecondition(
      `only a restore in place can be reverted; this one ${what} and left the tree as it was`,
    );
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

/** The acknowledgment fields of a RevertRestore call, as sent (either may be absent). */
export interface RevertAcknowledgmentFields {
  writes?: number | undefined;
  throughSequence?: number | undefined;
}

/**
 * The acknowledgment a revert checks: both fields or neither (a count without the preview's
 * sequence cannot tell whether a counted key was written again since the preview).
 */
export function checkedAcknowledgment(
  fields: RevertAcknowledgmentFields,
): RevertAcknowledgment | undefined {
  const { writes, throughSequence } = fields;
  if (writes !== undefined && writes < 0) {
    throw invalidArgument('acknowledged_writes_since_restore', 'must not be negative');
  }
  if (throughSequence !== undefined && throughSequence < 0) {
    throw invalidArgument('acknowledged_through_sequence', 'must not be negative');
  }
  if (writes === undefined && throughSequence === undefined) return undefined;
  if (throughSequence === undefined) {
    throw invalidArgument(
      'acknowledged_through_sequence',
      'is required with acknowledged_writes_since_restore (send both from the revert preview)',
    );
  }
  if (writes === undefined) {
    throw invalidArgument(
      'acknowledged_writes_since_restore',
      'is required with acknowledged_through_sequence (send both from the revert preview)',
    );
  }
  return { writes, throughSequence };
}

/**
 * Reverts an IN_PLACE restore (DESIGN.md §3). Nothing in `response` is trusted but its operation
 * id: the stored restore supplies the physical trees, and a response whose other fields differ
 * from the stored one is refused, so a forged response can never swap a tree to a chosen id.
 * Writes made to the tree since the restore are never dropped silently: with any, the revert is
 * refused unless the acknowledgment names exactly how many (the revert preview shows them) and
 * the tree's sequence mark is still the one the preview saw (nothing written since it).
 */
export async function revertRestore(
  storage: Storage,
  tenant: string,
  response: RestoreResult,
  fields: RevertAcknowledgmentFields,
  now: number,
  by: string,
): Promise<RevertOutcome> {
  const acknowledgment = checkedAcknowledgment(fields);
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
  const outcome = await revertRestoredTree(storage, { restore, acknowledgment, now, by });
  const tree = stored.targetTree;
  switch (outcome.status) {
    case 'previous_gone':
      throw failedPrecondition('the physical tree the restore replaced no longer exists');
    case 'moved':
      throw failedPrecondition(`tree ${tree} changed since the restore; not reverted`);
    case 'written_since_preview':
      throw failedPrecondition(
        `tree ${tree} was written since the preview (sequence ${outcome.treeSequence}, ` +
          `previewed ${acknowledgment?.throughSequence ?? 0}); preview the revert again`,
      );
    case 'unacknowledged_writes': {
      const made = `${writesPhrase(outcome.writes)} made to tree ${tree} since the restore`;
      const them = outcome.writes === 1 ? 'it' : 'them';
      throw failedPrecondition(
        acknowledgment === undefined
          ? `${made}; preview the revert and acknowledge to discard ${them}`
          : `${made}, not the ${acknowledgment.writes} acknowledged; preview the revert again`,
      );
    }
    case 'reverted':
      return { treeId: tree, discardedWrites: outcome.discardedWrites };
  }
}
