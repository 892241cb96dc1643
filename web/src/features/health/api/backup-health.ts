import { createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  durationToMs,
  type BackupHealthReport,
  type BackupManifest,
} from '@store/contract';
import type { Api } from '../../../lib/api/create-api';
import { formatLocal, toDate } from '../../../lib/format';

/** A backup's stored health: its last report (null: never verified) and monitoring config. */
export interface StoredHealth {
  report: BackupHealthReport | null;
  /** null: monitoring was never configured for this backup. */
  monitoring: { enabled: boolean; intervalMs: number } | null;
}

/**
 * GetBackupHealth with its config. The typed client returns only the report, so this asks the
 * same RPC through a plain client on the API layer's transport (same headers, same interceptor).
 */
export async function fetchStoredHealth(
  api: Api,
  backupId: string,
  signal?: AbortSignal,
): Promise<StoredHealth> {
  const rpc = createClient(BackupControlService, api.transport);
  const response = await rpc.getBackupHealth({ backupId }, { signal });
  return {
    report: response.found ? (response.report ?? null) : null,
    monitoring: response.config
      ? {
          enabled: response.config.monitoringEnabled,
          intervalMs: durationToMs(response.config.interval),
        }
      : null,
  };
}

/** "nightly (orders, full, 1 May 2026 12:00)" for the backup picker. */
export function backupLabel(manifest: BackupManifest): string {
  const created = toDate(manifest.createdAt);
  const kind = manifest.baseBackupId ? 'incremental' : 'full';
  const when = created ? `, ${formatLocal(created)}` : '';
  return `${manifest.name || manifest.backupId} (${manifest.treeId}, ${kind}${when})`;
}
