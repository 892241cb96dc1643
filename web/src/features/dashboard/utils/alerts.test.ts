import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { ActiveAlertSchema } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { describe, expect, it } from 'vitest';
import { severityWords, sortAlerts } from './alerts';

const alert = (alertName: string, severity: string, sinceMs?: number) =>
  create(ActiveAlertSchema, {
    alertName,
    severity,
    ...(sinceMs !== undefined && { since: timestampFromMs(sinceMs) }),
  });

describe('alerts on the dashboard', () => {
  it('puts critical first, then warnings, each longest-standing first', () => {
    const sorted = sortAlerts([
      alert('late', 'warning', 5),
      alert('new-critical', 'critical', 9),
      alert('odd', 'info'),
      alert('old-critical', 'CRITICAL', 1),
      alert('early', 'warning', 2),
    ]);
    expect(sorted.map((a) => a.alertName)).toEqual([
      'old-critical',
      'new-critical',
      'early',
      'late',
      'odd',
    ]);
  });

  it('says a severity in words with its colour, the label kept as raw', () => {
    expect(severityWords('critical')).toEqual({
      words: 'Critical',
      raw: 'critical',
      tone: 'danger',
    });
    expect(severityWords('warning').tone).toBe('warning');
    expect(severityWords('page')).toEqual({ words: 'Page', raw: 'page', tone: 'info' });
  });
});
