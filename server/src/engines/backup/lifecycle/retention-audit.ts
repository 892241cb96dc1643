import type { AuditEntry } from '../../audit/audit-trail.js';
import type { RetentionDeletionEvent } from './retention-apply.js';
import { scopeLabel } from './retention-apply.js';

/** The audit record of one backup deleted by retention (one per backup, as DeleteBackup's). */
export function retentionDeletionRecord(event: RetentionDeletionEvent): AuditEntry {
  return {
    tenant: event.tenant,
    // 'retention' when the run followed a scheduled capture; the applying caller otherwise.
    subject: event.by,
    service: 'store.lifecycle.v1.BackupLifecycleService',
    method: 'RetentionDelete',
    targetId: event.backupId,
    outcome: 'OK',
    clientAddress: 'local',
    detail:
      `deleted by retention operation ${event.operationId} of ${scopeLabel(event.scope)}: ` +
      `${event.backupName} (${event.byteSize} bytes)`,
  };
}
