import type { BackupManifest } from '@store/contract';
import { useEffect, useRef } from 'react';
import { Field } from '../../../components/ui/field';
import { describeError } from '../../../lib/errors';
import { formatLocal, toDate } from '../../../lib/format';
import { useListBackupsQuery } from '../../../lib/backups/use-list-backups-query';

/** How many of a tree's newest backups the base picker offers. */
const BASE_CHOICES = 200;

export interface BaseBackupPickerProps {
  treeId: string;
  keyPrefix: string;
  value: string;
  error: string | undefined;
  onChange: (backupId: string) => void;
}

/** The newest of these backups (by creation time), the base an incremental usually wants. */
export function newestBackup<T extends Pick<BackupManifest, 'createdAt'>>(
  backups: readonly T[],
): T | undefined {
  const at = (b: T) =>
    b.createdAt ? Number(b.createdAt.seconds) * 1000 + b.createdAt.nanos / 1e6 : 0;
  return backups.reduce<T | undefined>(
    (best, b) => (!best || at(b) > at(best) ? b : best),
    undefined,
  );
}

/**
 * The incremental's base: only backups of the chosen tree with the same key prefix, since the
 * server refuses any other base. The newest of them is preselected once per tree and prefix
 * (a base the opener preset, or one the user chose, is kept).
 */
export function BaseBackupPicker({
  treeId,
  keyPrefix,
  value,
  error,
  onChange,
}: BaseBackupPickerProps) {
  const backups = useListBackupsQuery(
    { treeId, pageSize: BASE_CHOICES },
    { enabled: treeId !== '', select: (page) => page.backups },
  );
  const choices = (backups.data ?? []).filter((b) => (b.keyPrefix ?? '') === keyPrefix);
  const newest = newestBackup(choices);
  const preselectedFor = useRef<string | null>(null);
  const scope = `${treeId}\u0000${keyPrefix}`;
  useEffect(() => {
    if (!backups.isSuccess || preselectedFor.current === scope) return;
    preselectedFor.current = scope;
    if (value === '' && newest) onChange(newest.backupId);
  }, [backups.isSuccess, scope, value, newest, onChange]);
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
                {created ? `, ${formatLocal(created)}` : ''}){backup === newest ? ' · newest' : ''}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}
