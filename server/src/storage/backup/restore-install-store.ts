import { sql } from 'kysely';
import { getRestore, insertRestore, type RestoreRow } from './backup-restore-store.js';
import {
  countLiveEntries,
  getPhysicalTree,
  raiseLastSequence,
  REPLACE_ON_KEY_CONFLICT,
  swapPhysicalTree,
} from '../data/physical-tree-store.js';
import { copyOutsidePrefixInSteps, type SteppedWriteOptions } from '../data/stepped-tree-writes.js';
import { resolveTree, selectTreeForUpdate } from '../data/tree-store.js';
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
  /** A scoped restore's rows outside its prefix, copied before the install (preCopyOutsidePrefix). */
  preCopied?: PreCopy | undefined;
}

/** What preCopyOutsidePrefix copied: the tree it read, and up to which sequence it is exact. */
export interface PreCopy {
  fromPhysicalTreeId: string;
  upToSequence: number;
}

/**
 * Copies the current tree's rows outside a scoped restore's prefix into the restored tree
 * before the install, in bounded steps (stepped-tree-writes.ts): in the install's transaction
 * one INSERT … SELECT of a 1 M-entry tree held SQLite's event loop for seconds. Writes that land
 * meanwhile all take a sequence above the one read here first, so the install copies just those
 * (installRestoredTree). Undefined when the tree does not exist yet.
 */
export async function preCopyOutsidePrefix(
  handle: TreeDb,
  request: { tenant: string; treeName: string; physicalTreeId: string; keyPrefix: string },
  options: SteppedWriteOptions = {},
): Promise<PreCopy | undefined> {
  // The tree and its last sequence in one read, before any row is copied.
  const current = await resolveTree(handle, request.tenant, request.treeName);
  if (!current) return undefined;
  await copyOutsidePrefixInSteps(
    handle,
    current.physicalTreeId,
    request.physicalTreeId,
    request.keyPrefix,
    options,
  );
  return { fromPhysicalTreeId: current.physicalTreeId, upToSequence: current.lastSequence };
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
        if (keyPrefix !== '') {
          await copyOutside(
            tx,
            current.physicalTreeId,
            physicalTreeId,
            keyPrefix,
            request.preCopied,
          );
        }
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

/**
 * The install's part of a scoped restore's copy: only what changed since the pre-copy when it
 * read the tree still current; else (another restore swapped the tree meanwhile) the pre-copy
 * is thrown away and the whole outside copied here.
 */
async function copyOutside(
  tx: TreeDb,
  from: string,
  to: string,
  prefix: string,
  preCopied: PreCopy | undefined,
): Promise<void> {
  if (preCopied?.fromPhysicalTreeId === from) {
    await copyChangedOutsidePrefix(tx, from, to, prefix, preCopied.upToSequence);
    return;
  }
  if (preCopied) {
    await tx.db
      .deleteFrom('entries')
      .where('physical_tree_id', '=', to)
      .where(sql<boolean>`not (${startsWith('key', prefix)})`)
      .execute();
  }
  await copyOutsidePrefix(tx, from, to, prefix);
}

/**
 * Rows outside the prefix written after `afterSequence` (through the sequence index), over
 * what the pre-copy holds of them: every write (put, delete's tombstone, schema rewrite) takes
 * a new sequence, and nothing deletes a live tree's rows. On SQLite the index is named: without
 * statistics its planner may walk the tree's whole key range instead, synchronously, in the
 * install's transaction.
 */
async function copyChangedOutsidePrefix(
  tx: TreeDb,
  from: string,
  to: string,
  prefix: string,
  afterSequence: number,
): Promise<void> {
  await changedOutsidePrefixCopy(tx, from, to, prefix, afterSequence).execute(tx.db);
}

/** The statement of copyChangedOutsidePrefix (its plan is tested). */
export function changedOutsidePrefixCopy(
  tx: TreeDb,
  from: string,
  to: string,
  prefix: string,
  afterSequence: number,
) {
  return sql`
    insert into entries
      (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
    select ${to}, key, value_json, tombstone, sequence, schema_version, updated_at
    from entries ${sql.raw(tx.dialect === 'sqlite' ? 'indexed by entries_by_sequence' : '')}
    where physical_tree_id = ${from} and sequence > ${afterSequence}
      and not (${startsWith('key', prefix)})
    ${sql.raw(REPLACE_ON_KEY_CONFLICT)}
  `;
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
