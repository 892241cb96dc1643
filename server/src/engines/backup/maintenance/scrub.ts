import {
  listAllBackupRows,
  liveCaptureIds,
  releaseCapture,
} from '../../../storage/backup/backup-store.js';
import type { Storage } from '../../../storage/database.js';
import { dropPhysicalTree } from '../../../storage/data/physical-tree-store.js';
import { leftoverRestoreTrees } from '../../../storage/backup/restore-leftovers-store.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { BackupManifestDoc, ScrubFinding, ScrubResult } from '../backup-types.js';

/**
 * Scrubs a tenant's catalog against the artifact store: rows whose artifacts are missing or fail
 * their checksum, and files no row owns (directories or key prefixes of crashed captures or
 * half-deleted backups, leftover temp files or incomplete multipart uploads, stray artifacts) and physical trees of restores that died before their
 * install. Directories of captures still running (their operation queued or holding a live
 * lease) are left alone, and so are restore trees while a restore may still be running. With `prune`, orphans are deleted; damaged
 * artifacts of catalogued backups are only reported (they may be all that is left).
 */
export async function scrubCatalog(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  options: { prune: boolean; now: number; signal?: AbortSignal; onProgress?: (n: number) => void },
): Promise<ScrubResult> {
  const result: ScrubResult = {
    rowsChecked: 0,
    artifactsChecked: 0,
    findings: [],
    orphansFound: 0,
    orphansPruned: 0,
    pruneOrphans: options.prune,
  };
  const rows = await listAllBackupRows(storage, tenant);
  const owned = new Map<string, Set<string>>();
  for (const row of rows) {
    options.signal?.throwIfAborted();
    const manifest = JSON.parse(row.manifestJson) as BackupManifestDoc;
    owned.set(row.id, new Set(manifest.artifacts.map((a) => a.artifactId)));
    for (const artifact of manifest.artifacts) {
      const check = await artifacts.verifyArtifact(tenant, row.id, artifact, options);
      result.artifactsChecked += 1;
      if (!check.ok) {
        result.findings.push({
          backupId: row.id,
          artifactId: artifact.artifactId,
          problem: check.problem === 'missing' ? 'missing' : 'corrupt',
          detail: check.detail ?? check.problem ?? '',
        });
      }
    }
    result.rowsChecked += 1;
    options.onProgress?.(result.rowsChecked);
  }

  const live = await liveCaptureIds(storage, tenant, options.now);
  const orphan = async (finding: ScrubFinding, path: string, backupId?: string) => {
    result.findings.push(finding);
    result.orphansFound += 1;
    if (!options.prune) return;
    if (await artifacts.deleteOrphan(path)) result.orphansPruned += 1;
    if (backupId) await releaseCapture(storage, tenant, backupId);
  };
  // A store whose leftovers need an age (S3: a day) keeps younger ones: they may still be
  // written by a capture in flight on any replica.
  const grace = artifacts.orphanGraceMs;
  const oldEnough = (modifiedAt: number) => grace <= 0 || options.now - modifiedAt >= grace;
  for (const stored of await artifacts.listStoredBackups(tenant)) {
    options.signal?.throwIfAborted();
    if (live.has(stored.backupId)) continue;
    const mine = owned.get(stored.backupId);
    if (!mine) {
      const newest = Math.max(
        0,
        ...[...stored.artifacts, ...stored.tempFiles].map((f) => f.modifiedAt),
      );
      if (!oldEnough(newest)) continue;
      const detail =
        `no catalog row owns this backup's files in the artifact store (${stored.artifacts.length} artifacts, ` +
        `${stored.tempFiles.length} unfinished writes, manifest ${stored.hasManifest ? 'present' : 'absent'})`;
      await orphan(
        { backupId: '', artifactId: stored.backupId, problem: 'orphan', detail },
        stored.directory,
        stored.backupId,
      );
      continue;
    }
    for (const temp of stored.tempFiles) {
      if (!oldEnough(temp.modifiedAt)) continue;
      const detail = `unfinished write ${temp.name} of backup ${stored.backupId}`;
      await orphan({ backupId: '', artifactId: temp.name, problem: 'orphan', detail }, temp.path);
    }
    for (const artifact of stored.artifacts) {
      if (mine.has(artifact.artifactId) || !oldEnough(artifact.modifiedAt)) continue;
      const detail = `artifact ${artifact.name} is not in the manifest of ${stored.backupId}`;
      await orphan(
        { backupId: '', artifactId: artifact.artifactId, problem: 'orphan', detail },
        artifact.path,
      );
    }
  }
  for (const physicalTreeId of await leftoverRestoreTrees(storage, tenant, options.now)) {
    options.signal?.throwIfAborted();
    result.findings.push({
      backupId: '',
      artifactId: physicalTreeId,
      problem: 'orphan',
      detail: `physical tree ${physicalTreeId} was filled by a restore that never installed it`,
    });
    result.orphansFound += 1;
    if (options.prune && (await dropPhysicalTree(storage, physicalTreeId)))
      result.orphansPruned += 1;
  }
  return result;
}
