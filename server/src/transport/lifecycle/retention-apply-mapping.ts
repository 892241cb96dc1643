import { create } from '@bufbuild/protobuf';
import { StoreRetentionApplyResultSchema, type StoreOperationStatus } from '@store/contract';
import {
  FIRST_DELETED_NAMED,
  type RetentionApplyResult,
} from '../../engines/backup/lifecycle/retention-apply.js';

/** The wire form of a scope: an empty key prefix is the whole tree, said by its absence. */
export const scopeSelector = (treeName: string, keyPrefix: string) => ({
  treeId: treeName,
  ...(keyPrefix !== '' && { keyPrefix }),
});

/**
 * The status's result oneof for a finished RETENTION_APPLY. Results stored before deletions were
 * named carry ids only: those are listed without names.
 */
export function mapRetentionApplyResult(result: unknown): StoreOperationStatus['result'] {
  const r = result as RetentionApplyResult;
  const named =
    r.firstDeleted ??
    r.deletedBackupIds
      .slice(0, FIRST_DELETED_NAMED)
      .map((backupId) => ({ backupId, name: '', byteSize: 0 }));
  return {
    case: 'retentionApply',
    value: create(StoreRetentionApplyResultSchema, {
      scope: scopeSelector(r.treeName, r.keyPrefix),
      deletedCount: BigInt(r.deletedBackupIds.length),
      bytesFreed: BigInt(r.bytesFreed),
      keptCount: BigInt(r.keptCount),
      deletedElsewhereCount: BigInt(r.deletedElsewhere.length),
      deleted: named.map((d) => ({
        backupId: d.backupId,
        name: d.name,
        byteSize: BigInt(d.byteSize),
      })),
      afterScheduledCapture: r.afterScheduledCapture ?? false,
      fingerprint: r.fingerprint,
    }),
  };
}
