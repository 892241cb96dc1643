import type { BackupDifferenceStorage } from '@store/contract';
import { GuardedButton } from '../ui/guarded-button';
import { ErrorText } from '../ui/error-text';
import { Time } from '../ui/time';
import { useKeepBackupComparisonMutation } from '../../lib/comparisons/use-backup-comparison';
import { useRoles } from '../../lib/identity/use-roles';

/**
 * Until when a comparison's differences are stored, with Keep (admin): stored differences expire
 * unless kept, and kept ones still count against the tenant's preview storage cap
 * (docs/security.md, "Preview storage").
 */
export function DifferenceStorageNote({
  operationId,
  storage,
  title,
}: {
  operationId: string;
  storage: BackupDifferenceStorage | undefined;
  /** "Restore preview", "Backup diff"… */
  title: string;
}) {
  const roles = useRoles();
  const keep = useKeepBackupComparisonMutation(operationId);
  if (!storage) return null;
  if (storage.expired) {
    return (
      <p className="muted" data-testid="differences-expired">
        The stored differences expired
        {storage.expiresAt && (
          <>
            {' '}
            at <Time value={storage.expiresAt} />
          </>
        )}
        ; run the {title.toLowerCase()} again to see them.
      </p>
    );
  }
  return (
    <div className="bk-choice-row" data-testid="difference-storage">
      <p className="muted bk-small">
        {storage.kept ? (
          <>Differences kept: they last as long as the operation.</>
        ) : (
          <>
            Differences stored until <Time value={storage.expiresAt} />.
          </>
        )}
      </p>
      <GuardedButton
        allowed={roles.atLeast('admin')}
        reason={roles.needs('admin')}
        busy={keep.isPending}
        onClick={() => keep.mutate(storage.kept)}
      >
        {storage.kept ? 'Stop keeping' : 'Keep differences'}
      </GuardedButton>
      {keep.error && <ErrorText error={keep.error} />}
    </div>
  );
}
