import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { ActiveAlert } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import type { BadgeTone } from '../../../components/ui/badge';

const SEVERITY_RANK: Record<string, number> = { critical: 0, warning: 1 };

/** Critical first, then warnings, then anything else; within one, the longest-standing first. */
export function sortAlerts(alerts: readonly ActiveAlert[]): ActiveAlert[] {
  const rank = (alert: ActiveAlert) => SEVERITY_RANK[alert.severity.toLowerCase()] ?? 2;
  const since = (alert: ActiveAlert) =>
    alert.since ? timestampMs(alert.since) : Number.MAX_SAFE_INTEGER;
  return [...alerts].sort((a, b) => rank(a) - rank(b) || since(a) - since(b));
}

/** A rule's severity label in words and colour: "Critical" in red, "Warning" in amber. */
export function severityWords(severity: string): { words: string; raw: string; tone: BadgeTone } {
  const raw = severity;
  const lower = severity.toLowerCase();
  if (lower === 'critical') return { words: 'Critical', raw, tone: 'danger' };
  if (lower === 'warning') return { words: 'Warning', raw, tone: 'warning' };
  return {
    words: severity ? lower.charAt(0).toUpperCase() + lower.slice(1) : 'Alert',
    raw,
    tone: 'info',
  };
}
