import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupHealthStatus,
  StoreRetentionApplyResultSchema,
  type StoreOperationStatus,
} from '@store/contract';
import {
  FIRST_DELETED_NAMED,
  type DeletedBackup,
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
  const named: DeletedBackup[] =
    r.firstDeleted ??
    r.deletedBackupIds
      .slice(0, FIRST_DELETED_NAMED)
      .map((backupId) => ({ backupId, name: '', byteSize: 0, health: null }));
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
        healthStatus:
          d.health === 'HEALTHY' ? BackupHealthStatus.HEALTHY : BackupHealthStatus.UNSPECIFIED,
      })),
      keptDamaged: (r.keptDamaged ?? []).map((d) => ({
        backupId: d.backupId,
        name: d.name,
        healthStatus: BackupHealthStatus[d.status],
        damagedSince: timestampFromMs(d.since),
      })),
      keptDamagedCount: BigInt(r.keptDamagedCount ?? 0),
      afterScheduledCapture: r.afterScheduledCapture ?? false,
      fingerprint: r.fingerprint,
      stoppedReason: r.stoppedReason ?? '',
      ...(r.scheduledCapture && {
        scheduledCapture: {
          backupName: r.scheduledCapture.name,
          incremental: r.scheduledCapture.incremental,
        },
      }),
    }),
  };
}
