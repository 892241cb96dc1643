import type { BackupManifest } from '@store/contract';
import { ListPicker } from '../../../components/ui/list-picker';
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
  return (
    <ListPicker
      label="Backup"
      noun={{ one: 'backup', many: 'backups' }}
      value={value}
      onChange={onChange}
      options={backups?.map((backup) => ({ value: backup.backupId, label: backupLabel(backup) }))}
      isPending={isPending}
      error={error}
      onRetry={onRetry}
    />
  );
}
