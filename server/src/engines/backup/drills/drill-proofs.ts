import {
  newestDrillsByOutcome,
  treeNamesPage,
} from '../../../storage/backup/drills/drill-proof-store.js';
import type { StoredDrill } from '../../../storage/backup/drills/restore-drill-store.js';
import type { Storage } from '../../../storage/database.js';
import { invalidArgument } from '../../errors.js';

const DEFAULT_TREES = 500;
const MAX_TREES = 1000;
export const MAX_BACKUP_PROOFS = 500;

/** What proves a tree or a backup restorable: its newest PROVEN drill and its newest drill. */
export interface Proof {
  /** Absent: never proven. */
  lastProven: StoredDrill | undefined;
  /** Absent: never drilled. */
  lastDrill: StoredDrill | undefined;
}

/** Rows newest first → the newest proven and newest drill per key (ties: the first row wins). */
function proofsBy(rows: readonly StoredDrill[], keyOf: (d: StoredDrill) => string) {
  const proofs = new Map<string, Proof>();
  for (const row of rows) {
    const proof = proofs.get(keyOf(row)) ?? { lastProven: undefined, lastDrill: undefined };
    proof.lastDrill ??= row;
    if (row.outcome === 'PROVEN') proof.lastProven ??= row;
    proofs.set(keyOf(row), proof);
  }
  return proofs;
}

/** A page of the tenant's trees (name order), each with its proof (issue 36 bullet 5). */
export async function treeProofs(
  storage: Storage,
  tenant: string,
  page: { pageSize: number; pageToken: string },
): Promise<{ trees: Array<{ treeName: string } & Proof>; nextPageToken: string }> {
  if (!Number.isInteger(page.pageSize) || page.pageSize < 0 || page.pageSize > MAX_TREES) {
    throw invalidArgument('page_size', `must be between 0 and ${MAX_TREES}`);
  }
  const limit = page.pageSize === 0 ? DEFAULT_TREES : page.pageSize;
  const after = page.pageToken === '' ? '' : Buffer.from(page.pageToken, 'base64url').toString();
  const names = await treeNamesPage(storage, tenant, { limit: limit + 1, after });
  const shown = names.slice(0, limit);
  const proofs = proofsBy(
    await newestDrillsByOutcome(storage, tenant, 'tree_name', shown),
    (d) => d.treeName,
  );
  const last = shown.at(-1);
  return {
    trees: shown.map((treeName) => ({
      treeName,
      ...(proofs.get(treeName) ?? { lastProven: undefined, lastDrill: undefined }),
    })),
    nextPageToken: names.length > limit && last ? Buffer.from(last).toString('base64url') : '',
  };
}

/** Each asked backup's proof, in the order asked (an unknown id reads as never drilled). */
export async function backupProofs(
  storage: Storage,
  tenant: string,
  backupIds: readonly string[],
): Promise<Array<{ backupId: string } & Proof>> {
  if (backupIds.length > MAX_BACKUP_PROOFS) {
    throw invalidArgument('backup_ids', `at most ${MAX_BACKUP_PROOFS} backups at a time`);
  }
  const unique = [...new Set(backupIds)];
  const proofs = proofsBy(
    await newestDrillsByOutcome(storage, tenant, 'backup_id', unique),
    (d) => d.backupId,
  );
  return backupIds.map((backupId) => ({
    backupId,
    ...(proofs.get(backupId) ?? { lastProven: undefined, lastDrill: undefined }),
  }));
}
