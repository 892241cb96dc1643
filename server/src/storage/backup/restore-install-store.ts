import { sql } from 'kysely';
import { getRestore, insertRestore, type RestoreRow } from './backup-restore-store.js';
import {
  countLiveEntries,
  getPhysicalTree,
  raiseLastSequence,
  swapPhysicalTree,
} from '../data/physical-tree-store.js';
import { selectTreeForUpdate } from '../data/tree-store.js';
import { startsWith, withTransaction, type TreeDb } from '../data/tree-db.js';

/**
 * The one transaction that makes a restore visible: it checks the target under its row lock,
 * continues the old tree's sequence numbering, carries over entries outside a scoped restore's
 * prefix, swaps (IN_PLACE, NEW_TREE) and stores the restore, so a crash leaves either the old
 * tree untouched or the restore complete and recorded.
 */

export type InstallOutcome =
  | { status: 'installed'; previousPhysicalTreeId: string | null }
  | { status: 'duplicate'; existing: RestoreRow }
  | { status: 'not_empty' }
  | { status: 'locked'; lockedBy: string };

export interface InstallRequest {
  tenant: string;
  treeName: string;
  /** The filled, not yet visible physical tree. */
  physicalTreeId: string;
  mode: 'IN_PLACE' | 'NEW_TREE' | 'SHADOW';
  /** Non-empty: only this prefix was restored; the rest of the current tree is kept. */
  keyPrefix: string;
  /** The cold restore's own lock, which must not refuse it. */
  lockedBy: string | null;
  now: number;
  restore: Omit<
    RestoreRow,
    'revertedAt' | 'revertedBy' | 'previousPhysicalTreeId' | 'installedSequence'
  >;
  /** The stored result, once the replaced physical tree is known. */
  resultOf(previousPhysicalTreeId: string | null): string;
}

/** Installs a restored physical tree (see above). */
export async function installRestoredTree(
  handle: TreeDb,
  request: InstallRequest,
): Promise<InstallOutcome> {
  const { tenant, treeName, physicalTreeId, mode, keyPrefix, now } = request;
  return withTransaction(handle, async (tx) => {
    const current = await selectTreeForUpdate(tx, tenant, treeName);
    const existing = await getRestore(tx, tenant, request.restore.operationId);
    if (existing) return { status: 'duplicate', existing };
    if (current && current.writeLockedBy !== null && current.writeLockedBy !== request.lockedBy) {
      return { status: 'locked', lockedBy: current.writeLockedBy };
    }
    if (
      mode === 'NEW_TREE' &&
      current &&
      (await countLiveEntries(tx, current.physicalTreeId)) > 0
    ) {
      return { status: 'not_empty' };
    }
    let previous: string | null = null;
    if (mode !== 'SHADOW') {
      if (current) {
        // Sequence numbers are never reused: later incrementals compare against them.
        const old = await getPhysicalTree(tx, current.physicalTreeId);
        await raiseLastSequence(tx, physicalTreeId, old?.lastSequence ?? 0);
        if (keyPrefix !== '')
          await copyOutsidePrefix(tx, current.physicalTreeId, physicalTreeId, keyPrefix);
      }
      const swap = await swapPhysicalTree(tx, { tenant, treeName, physicalTreeId, now });
      if (swap.swapped) previous = swap.previousPhysicalTreeId ?? null;
    }
    // Whatever is written into the restored tree from now on numbers above this (revert counts
    // those writes; restore-revert-store.ts). Nothing wrote to it yet: it was not reachable.
    const installed = await getPhysicalTree(tx, physicalTreeId);
    await insertRestore(tx, {
      ...request.restore,
      previousPhysicalTreeId: previous,
      installedSequence: installed?.lastSequence ?? null,
      resultJson: request.resultOf(previous),
    });
    return { status: 'installed', previousPhysicalTreeId: previous };
  });
}

async function copyOutsidePrefix(tx: TreeDb, from: string, to: string, prefix: string) {
  await tx.db
    .insertInto('entries')
    .columns([
      'physical_tree_id',
      'key',
      'value_json',
      'tombstone',
      'sequence',
      'schema_version',
      'updated_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('entries')
        .select([
          sql<string>`cast(${to} as text)`.as('physical_tree_id'),
          'key',
          'value_json',
          'tombstone',
          'sequence',
          'schema_version',
          'updated_at',
        ])
        .where('physical_tree_id', '=', from)
        .where(sql<boolean>`not (${startsWith('key', prefix)})`),
    )
    .execute();
}
