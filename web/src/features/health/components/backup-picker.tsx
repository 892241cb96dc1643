import type { BackupManifest } from '@store/contract';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { backupLabel } from '../api/backup-health';

export interface BackupPickerProps {
  value: string;
  onChange: (backupId: string) => void;
  backups: readonly BackupManifest[] | undefined;
  isPending: boolean;
  error: Error | null;
  onRetry: () => void;
}

/** A select of the newest backups; a backup id from the URL that is not listed stays selected. */
export function BackupPicker({
  value,
  onChange,
  backups,
  isPending,
  error,
  onRetry,
}: BackupPickerProps) {
  const listed = backups ?? [];
  const missing = value !== '' && !listed.some((b) => b.backupId === value);
  return (
    <div className="filters">
      <Field
        label="Backup"
        hint={isPending ? 'Loading backups…' : listed.length === 0 ? 'No backups yet.' : undefined}
      >
        {(control) => (
          <select
            {...control}
            className="input"
            value={value}
            onChange={(event) => onChange(event.target.value)}
          >
            <option value="">Choose a backup…</option>
            {missing && <option value={value}>{value}</option>}
            {listed.map((backup) => (
              <option key={backup.backupId} value={backup.backupId}>
                {backupLabel(backup)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {error && <ErrorBanner title="Could not list backups" error={error} onRetry={onRetry} />}
    </div>
  );
}
