import type { BackupManifest } from '@store/contract';
import { healthFreshness } from '../utils/health-freshness';

export interface HealthOverrideProps {
  manifest: Pick<BackupManifest, 'backupId' | 'lastHealthStatus' | 'lastVerifiedAt'>;
  /** "restore" or "export": what the override lets through. */
  action: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
}

/**
 * The explicit override asked for before restoring or exporting a backup whose last health
 * report found it CORRUPT or MISSING.
 */
export function HealthOverride({
  manifest,
  action,
  checked,
  onChange,
  error,
}: HealthOverrideProps) {
  const label = healthFreshness(manifest).label.toLowerCase();
  return (
    <div className="notice notice--warning bk-override" role="group" aria-label="Health warning">
      <p>
        The last health check found backup <strong className="mono">{manifest.backupId}</strong>{' '}
        <strong>{label}</strong>. The {action} may fail or produce incomplete data.
      </p>
      <label className="bk-choice">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        <span>I understand; {action} it anyway</span>
      </label>
      {error && <p className="field__error">{error}</p>}
    </div>
  );
}
