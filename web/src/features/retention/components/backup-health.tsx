import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { BackupHealthStatus } from '@store/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';

const HEALTH: Record<BackupHealthStatus, { words: string; tone: BadgeTone }> = {
  [BackupHealthStatus.UNSPECIFIED]: { words: 'Not verified', tone: 'neutral' },
  [BackupHealthStatus.HEALTHY]: { words: 'Healthy', tone: 'success' },
  [BackupHealthStatus.DEGRADED]: { words: 'Degraded', tone: 'warning' },
  [BackupHealthStatus.CORRUPT]: { words: 'Corrupt', tone: 'danger' },
  [BackupHealthStatus.MISSING]: { words: 'Missing', tone: 'danger' },
};

/** What the last check found, in words (the API's status name is the tooltip). */
export function healthWords(status: BackupHealthStatus) {
  const known = HEALTH[status] ?? HEALTH[BackupHealthStatus.UNSPECIFIED];
  return { ...known, raw: BackupHealthStatus[status] ?? String(status) };
}

/**
 * A backup's health in a retention list: the badge, and when it was last checked. Retention
 * never counts a damaged backup toward a rule, so the admin sees here why one stays.
 */
export function BackupHealthCell({
  status,
  checkedAt,
}: {
  status: BackupHealthStatus;
  checkedAt: Timestamp | undefined;
}) {
  const health = healthWords(status);
  return (
    <div className="table__value" data-testid="backup-health">
      <Badge tone={health.tone}>
        <Term term={health} />
      </Badge>
      {checkedAt && (
        <div className="muted bk-small">
          checked <Time value={checkedAt} compact />
        </div>
      )}
    </div>
  );
}
