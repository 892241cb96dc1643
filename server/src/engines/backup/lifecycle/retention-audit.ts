import type { AuditEntry } from '../../audit/audit-trail.js';
import type {
  RetentionDeletionEvent,
  RetentionStopEvent,
  ScheduledCapture,
} from './retention-apply.js';
import { scopeLabel } from './retention-apply.js';

const SERVICE = 'store.lifecycle.v1.BackupLifecycleService';

/** "after the scheduled full capture “inventory 2026-11-27 21:00”" — how an automatic apply began. */
export function scheduledCaptureWords(capture: ScheduledCapture | undefined): string {
  if (!capture) return 'after a scheduled capture';
  const kind = capture.incremental ? 'incremental' : 'full';
  return `after the scheduled ${kind} capture “${capture.name}”`;
}

/** "1.2 MiB": a size as people read it. */
function sizeWords(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * The audit record of one backup deleted by retention (one per backup, as DeleteBackup's). The
 * target is the backup's name, as people know it (its id is gone with it from the catalog; a
 * backup without a name is named by its id).
 */
export function retentionDeletionRecord(event: RetentionDeletionEvent): AuditEntry {
  const how =
    event.by === 'retention' ? scheduledCaptureWords(event.scheduledCapture) : 'from a preview';
  return {
    tenant: event.tenant,
    // 'retention' when the run followed a scheduled capture; the applying caller otherwise.
    subject: event.by,
    service: SERVICE,
    method: 'RetentionDelete',
    targetId: event.backupName || event.backupId,
    outcome: 'OK',
    clientAddress: 'local',
    detail:
      `“${event.backupName || event.backupId}” (${sizeWords(event.byteSize)}) deleted by the ` +
      `retention rules of ${scopeLabel(event.scope)}, applied ${how}`,
  };
}

/** The audit record of an automatic apply that stopped instead of deleting: why, in words. */
export function retentionStopRecord(event: RetentionStopEvent): AuditEntry {
  return {
    tenant: event.tenant,
    subject: 'retention',
    service: SERVICE,
    method: 'RetentionApplyStopped',
    targetId: event.scope.treeName,
    outcome: 'FAILED_PRECONDITION',
    clientAddress: 'local',
    detail: `Retention of ${scopeLabel(event.scope)}, ${scheduledCaptureWords(event.scheduledCapture)}: ${event.reason}`,
  };
}
