import { insertBackupIfAbsent } from '../../../storage/backup/backup-store.js';
import type { Storage } from '../../../storage/database.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { BackupManifestDoc, RebuildResult } from '../backup-types.js';
import { rowOfManifest } from '../catalog/catalog-entry.js';

/**
 * Re-creates missing catalog rows of a tenant from the manifests in the artifact store (each
 * proven by its own sha256). Existing rows are left as they are; a manifest that cannot be
 * proven, or that claims another tenant or id than where it lies, is reported, never guessed.
 */
export async function rebuildCatalog(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  options: { signal?: AbortSignal; onProgress?: (n: number) => void } = {},
): Promise<RebuildResult> {
  const { manifests, unreadable } = await artifacts.listManifests<BackupManifestDoc>(tenant);
  const result: RebuildResult = {
    manifestsScanned: manifests.length + unreadable.length,
    rowsRestored: 0,
    rowsAlreadyPresent: 0,
    unreadableManifests: unreadable.map((u) => `${u.backupId}: ${u.problem}`),
  };
  // Oldest first, so a base is back before the incrementals that name it.
  const ordered = [...manifests].sort((a, b) => a.manifest.createdAt - b.manifest.createdAt);
  for (const found of ordered) {
    options.signal?.throwIfAborted();
    const manifest = found.manifest;
    if (manifest.tenant !== tenant || manifest.backupId !== found.backupId) {
      result.unreadableManifests.push(`${found.backupId}: names another backup`);
      continue;
    }
    if (await insertBackupIfAbsent(storage, rowOfManifest(manifest))) result.rowsRestored += 1;
    else result.rowsAlreadyPresent += 1;
    options.onProgress?.(result.rowsRestored + result.rowsAlreadyPresent);
  }
  return result;
}
