import type { BackupManifest } from '@store/contract';
import { Badge } from '../../../components/ui/badge';
import { formatLocal, formatUtc } from '../../../lib/format';
import { healthFreshness } from '../utils/health-freshness';

/** The "last verified" badge of a backup, from its manifest's health fields (no extra call). */
export function HealthBadge({
  manifest,
}: {
  manifest: Pick<BackupManifest, 'lastHealthStatus' | 'lastVerifiedAt'>;
}) {
  const freshness = healthFreshness(manifest);
  const at = freshness.verifiedAt;
  return (
    <span
      className="bk-health"
      title={at ? `Last verified ${formatLocal(at)} (${formatUtc(at)})` : 'No health check yet'}
    >
      <Badge tone={freshness.tone}>{freshness.label}</Badge>
    </span>
  );
}
