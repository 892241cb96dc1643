import { getRestoreReverts } from '../../../storage/backup/backup-restore-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import type { OperationPage, OperationRecord } from '../../operations/types.js';
import type { RestoreResult } from '../backup-types.js';

const RESTORE_KINDS: ReadonlySet<string> = new Set(['RESTORE', 'COLD_RESTORE']);

/** The restore id a succeeded restore operation's result names (a duplicate names the first). */
function restoreIdOf(record: OperationRecord): string | undefined {
  if (!RESTORE_KINDS.has(record.kind) || record.result === undefined) return undefined;
  const id = (record.result as Partial<RestoreResult>).operationId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The records, each reverted restore's result saying when and by whom (revertedAt, revertedBy).
 * Joined when read, from the stored restore that RevertRestore marks: the one place a revert is
 * recorded, so reverts from before who was recorded show their time, and an operation whose
 * result is another's (an idempotent duplicate) shows that restore's revert too. One query.
 */
export async function markRestoreReverts(
  storage: TreeDb,
  tenant: string,
  records: OperationRecord[],
): Promise<OperationRecord[]> {
  const ids = records.flatMap((record) => restoreIdOf(record) ?? []);
  if (ids.length === 0) return records;
  const reverts = await getRestoreReverts(storage, tenant, ids);
  if (reverts.size === 0) return records;
  return records.map((record) => {
    const id = restoreIdOf(record);
    const revert = id === undefined ? undefined : reverts.get(id);
    if (!revert) return record;
    const result: RestoreResult = {
      ...(record.result as RestoreResult),
      revertedAt: revert.revertedAt,
      ...(revert.revertedBy !== null && { revertedBy: revert.revertedBy }),
    };
    return { ...record, result };
  });
}

/** What the bindings read of the operations runner (its status, list and cancel). */
export interface OperationReads<ListRequest> {
  get(tenant: string, id: string, kinds?: readonly string[]): Promise<OperationRecord | undefined>;
  list(tenant: string, request: ListRequest): Promise<OperationPage>;
  cancel(
    tenant: string,
    id: string,
    kinds: readonly string[] | undefined,
    cancelledBy: string,
  ): Promise<OperationRecord | undefined>;
}

/** `operations`, whose restore records say whether and when and by whom they were reverted. */
export function withRestoreReverts<ListRequest>(
  operations: OperationReads<ListRequest>,
  storage: TreeDb,
): OperationReads<ListRequest> {
  const one = async (tenant: string, record: OperationRecord | undefined) =>
    record && (await markRestoreReverts(storage, tenant, [record]))[0];
  return {
    get: async (tenant, id, kinds) => one(tenant, await operations.get(tenant, id, kinds)),
    list: async (tenant, request) => {
      const page = await operations.list(tenant, request);
      return { ...page, operations: await markRestoreReverts(storage, tenant, page.operations) };
    },
    cancel: async (tenant, id, kinds, cancelledBy) =>
      one(tenant, await operations.cancel(tenant, id, kinds, cancelledBy)),
  };
}
