import { StoreOperationKind, type StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { useBackupNames, useBackupTree } from '../../lib/backups/use-backup-names';
import { CopyableId } from '../ui/copyable-id';
import { paths } from '../../lib/paths';

/**
 * Kinds whose target id is a backup: the one a restore, check or restore preview reads, and a
 * diff's "after" side.
 */
const BACKUP_TARGETS: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.RESTORE,
  StoreOperationKind.COLD_RESTORE,
  StoreOperationKind.BACKUP_HEALTH_CHECK,
  StoreOperationKind.RESTORE_PREVIEW,
  StoreOperationKind.BACKUP_DIFF,
]);

/**
 * An operation's target as plain text, for a line of words (the tray, a chart's caption): a
 * backup by its name once known, anything else (a tree, a scope) as the server recorded it.
 */
export function useOperationTargetName(operation: StoreOperationStatus): string {
  const targetId = operation.targetId ?? '';
  const isBackup = BACKUP_TARGETS.has(operation.kind) && targetId !== '';
  const names = useBackupNames(isBackup ? [targetId] : []);
  return names.get(targetId) ?? targetId;
}

const RESTORES: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.RESTORE,
  StoreOperationKind.COLD_RESTORE,
]);

/**
 * What an operation acts on, by name. A restore's target is the tree it writes, read from the
 * backup named below it: from the start, the tree its request named (the status says it) or else
 * the backup's own tree; a health check's is the backup, by name; a capture's is its tree. The
 * backup id stays below a name, in monospace.
 */
export function OperationTarget({ operation }: { operation: StoreOperationStatus }) {
  const targetId = operation.targetId ?? '';
  const isBackup = BACKUP_TARGETS.has(operation.kind) && targetId !== '';
  const names = useBackupNames(isBackup ? [targetId] : []);
  const isRestore = RESTORES.has(operation.kind);
  const backupTree = useBackupTree(
    isRestore && operation.result.case !== 'restore' && !operation.targetTreeId ? targetId : '',
  );
  if (!targetId) return <span className="muted">—</span>;
  if (!isBackup) {
    return (
      <span className="truncate" title={targetId}>
        {targetId}
      </span>
    );
  }
  const backupName = names.get(targetId);
  const backup = (
    <Link className="truncate" to={paths.backup(targetId)} title={backupName ?? targetId}>
      {backupName ?? targetId}
    </Link>
  );
  const restoredInto =
    operation.result.case === 'restore'
      ? operation.result.value.targetTreeId
      : (operation.targetTreeId ?? backupTree);
  if (isRestore) {
    return (
      <span className="operation-target">
        {restoredInto ? (
          <Link className="truncate" to={paths.tree(restoredInto)} title={restoredInto}>
            tree {restoredInto}
          </Link>
        ) : (
          <span className="muted">tree of the backup</span>
        )}
        <span className="table__sub">from {backup}</span>
        {backupName && (
          <span className="table__sub">
            <CopyableId id={targetId} label="backup id" />
          </span>
        )}
      </span>
    );
  }
  return (
    <span className="operation-target">
      {backup}
      {backupName && (
        <span className="table__sub">
          <CopyableId id={targetId} label="backup id" />
        </span>
      )}
    </span>
  );
}
