import { getBackupNames, type BackupRow } from '../../../storage/backup/backup-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { failedPrecondition, type StoreError } from '../../errors.js';
import { nameList, quoted } from '../../words.js';

/**
 * FailedPrecondition for a delete without cascade of a backup that incrementals build on, in
 * words: "backup “full 3” cannot be deleted alone: a newer incremental backup depends on it
 * (“inc 4”); delete that first, or delete it with them (cascade)".
 */
export async function dependantsRefusal(
  handle: TreeDb,
  tenant: string,
  row: Pick<BackupRow, 'id' | 'name'>,
  dependants: readonly string[],
): Promise<StoreError> {
  const names = await getBackupNames(handle, tenant, dependants);
  const listed = nameList(dependants.map((id) => names.get(id) ?? id));
  const one = dependants.length === 1;
  const who = one
    ? 'a newer incremental backup depends on it'
    : `${dependants.length} newer incremental backups depend on it`;
  return failedPrecondition(
    `backup ${quoted(row.name || row.id)} cannot be deleted alone: ${who} (${listed}); ` +
      `delete ${one ? 'that' : 'those'} first, or delete it with them (cascade)`,
  );
}
