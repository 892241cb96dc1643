import { getBackupRow, type BackupRow } from '../../../storage/backup/backup-store.js';
import { saveHealthReport } from '../../../storage/backup/backup-health-store.js';
import type { Storage } from '../../../storage/database.js';
import { StoreError, notFound } from '../../errors.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type {
  BackupManifestDoc,
  HealthIssue,
  HealthReport,
  HealthStatus,
} from '../backup-types.js';

/**
 * Verifies a backup: every artifact of it and of its chain is read and hashed, and each base
 * must still be in the catalog. Status (most severe wins): CORRUPT (an own artifact fails its
 * size or checksum or cannot be read) > MISSING (an own artifact file is gone) > DEGRADED (the
 * chain is broken or damaged, or manifest.json is gone, so the backup cannot be fully restored
 * or cold-restored) > HEALTHY. The report is stored and updates the catalog's badge.
 */
export async function checkBackupHealth(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  backupId: string,
  options: { now: () => number; signal?: AbortSignal; onArtifact?: (n: number) => void },
): Promise<HealthReport> {
  const row = await getBackupRow(storage, tenant, backupId);
  if (!row) throw notFound(`backup ${backupId} does not exist`);
  const issues: HealthIssue[] = [];
  let own = { corrupt: false, missing: false };
  let chainIntact = true;
  let checked = 0;
  let bytes = 0;

  const verify = async (manifest: BackupManifestDoc, isOwn: boolean) => {
    for (const artifact of manifest.artifacts) {
      const result = await artifacts.verifyArtifact(tenant, manifest.backupId, artifact, {
        signal: options.signal,
      });
      checked += 1;
      bytes += result.bytesRead;
      options.onArtifact?.(checked);
      if (result.ok) continue;
      const problem = result.problem ?? 'unreadable';
      if (isOwn) {
        issues.push({ artifactId: artifact.artifactId, problem, detail: result.detail ?? '' });
        own = {
          corrupt: own.corrupt || problem !== 'missing',
          missing: own.missing || problem === 'missing',
        };
      } else {
        chainIntact = false;
        issues.push({
          artifactId: artifact.artifactId,
          problem: 'chain_broken',
          detail: `base backup ${manifest.backupId}: ${problem}`,
        });
      }
    }
  };

  await verify(JSON.parse(row.manifestJson) as BackupManifestDoc, true);
  let manifestOnDisk = true;
  try {
    await artifacts.readManifest(tenant, backupId);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    manifestOnDisk = false;
    issues.push({
      artifactId: 'manifest.json',
      problem: error.code === 'not_found' ? 'missing' : 'unreadable',
      detail: error.message,
    });
  }
  const seen = new Set([backupId]);
  for (let base: BackupRow | undefined = row; base?.baseBackupId;) {
    const next: string = base.baseBackupId;
    if (seen.has(next)) break;
    seen.add(next);
    base = await getBackupRow(storage, tenant, next);
    if (!base) {
      chainIntact = false;
      issues.push({
        artifactId: '',
        problem: 'chain_broken',
        detail: `base backup ${next} is missing`,
      });
      break;
    }
    await verify(JSON.parse(base.manifestJson) as BackupManifestDoc, false);
  }

  const status: HealthStatus = own.corrupt
    ? 'CORRUPT'
    : own.missing
      ? 'MISSING'
      : !chainIntact || !manifestOnDisk
        ? 'DEGRADED'
        : 'HEALTHY';
  const report: HealthReport = {
    backupId,
    checkedAt: options.now(),
    status,
    artifactsChecked: checked,
    bytesVerified: bytes,
    chainIntact,
    issues,
  };
  await saveHealthReport(storage, {
    tenant,
    backupId,
    status,
    checkedAt: report.checkedAt,
    json: JSON.stringify(report),
  });
  return report;
}
