import type { BackupProtection } from '@store/contract';
import { Badge } from '../../../components/ui/badge';
import { useSubjectName } from '../../../lib/identity/use-subject-name';

/** A padlock; the word beside it says what it means, so the drawing is hidden from readers. */
function LockIcon() {
  return (
    <svg
      aria-hidden="true"
      width="12"
      height="12"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      style={{ verticalAlign: '-1px', marginRight: '0.25em' }}
    >
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </svg>
  );
}

/**
 * "Protected", with who (by name, not subject) and why in the tooltip: a protected backup and its
 * chain are never deleted.
 */
export function LockBadge({ protection }: { protection: BackupProtection }) {
  const by = useSubjectName(protection.protectedBy).name;
  const why = protection.reason ? `: ${protection.reason}` : '';
  return (
    <span title={`Protected by ${by}${why}`} data-testid="lock-badge">
      <Badge tone="warning">
        <LockIcon />
        Protected
      </Badge>
    </span>
  );
}
