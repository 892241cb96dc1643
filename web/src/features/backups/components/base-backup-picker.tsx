import { Field } from '../../../components/ui/field';
import { describeError } from '../../../lib/errors';
import { formatLocal, toDate } from '../../../lib/format';
import { useTreeBackupsQuery } from '../hooks/use-tree-backups-query';

export interface BaseBackupPickerProps {
  treeId: string;
  keyPrefix: string;
  value: string;
  error: string | undefined;
  onChange: (backupId: string) => void;
}

/**
 * The incremental's base: only backups of the chosen tree with the same key prefix, since the
 * server refuses any other base.
 */
export function BaseBackupPicker({
  treeId,
  keyPrefix,
  value,
  error,
  onChange,
}: BaseBackupPickerProps) {
  const backups = useTreeBackupsQuery(treeId);
  const choices = (backups.data ?? []).filter((b) => (b.keyPrefix ?? '') === keyPrefix);
  const hint = !treeId
    ? 'Choose the tree first.'
    : backups.isPending
      ? 'Loading the tree’s backups…'
      : choices.length === 0
        ? `Tree ${treeId} has no backup to build on yet; start a full backup first.`
        : 'The incremental captures what changed since this backup.';
  return (
    <Field
      label="Base backup"
      hint={hint}
      error={error ?? (backups.error ? describeError(backups.error) : undefined)}
    >
      {(control) => (
        <select
          {...control}
          className="input"
          aria-required="true"
          disabled={!treeId || choices.length === 0}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">Choose a base backup…</option>
          {choices.map((backup) => {
            const created = toDate(backup.createdAt);
            return (
              <option key={backup.backupId} value={backup.backupId}>
                {backup.name || backup.backupId} ({backup.backupId}
                {created ? `, ${formatLocal(created)}` : ''})
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}
