import { saveHealthReport } from '../../../storage/backup/backup-health-store.js';
import type { Storage } from '../../../storage/database.js';
import { StoreError } from '../../errors.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { BackupManifestDoc, HealthReport, ManifestArtifact } from '../backup-types.js';

/**
 * Records an export whose bytes matched the manifest's SHA-256 as a verification of the backup
 * (the backup's health report, "last checked"), when the export proved all a health check would
 * (health-check.ts): the backup's only artifact was read and hashed whole, it has no base whose
 * chain a check would also read, and its manifest.json is readable. Any other export (one part of
 * several, an incremental) proves less than a check, so it records nothing rather than a HEALTHY
 * that could hide a DEGRADED chain or a damaged part. Returns the stored report, if any.
 */
export async function recordVerifiedExport(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  manifest: BackupManifestDoc,
  exported: ManifestArtifact,
  now: number,
): Promise<HealthReport | undefined> {
  if (manifest.baseBackupId) return undefined;
  const own = manifest.artifacts;
  if (own.length !== 1 || own[0]?.artifactId !== exported.artifactId) return undefined;
  try {
    await artifacts.readManifest(tenant, manifest.backupId);
  } catch (error) {
    // A manifest.json gone or unreadable is a DEGRADED verdict, which only a check may give.
    if (error instanceof StoreError) return undefined;
    throw error;
  }
  const report: HealthReport = {
    backupId: manifest.backupId,
    checkedAt: now,
    status: 'HEALTHY',
    artifactsChecked: 1,
    bytesVerified: exported.byteSize,
    chainIntact: true,
    issues: [],
    verifiedBy: 'export',
  };
  const saved = await saveHealthReport(storage, {
    tenant,
    backupId: manifest.backupId,
    status: report.status,
    checkedAt: report.checkedAt,
    json: JSON.stringify(report),
  });
  // Deleted while it was exported: there is no backup left to record it on.
  return saved ? report : undefined;
}
