import type { BackupRow } from '../../../storage/backup/backup-store.js';
import type { BackupManifestDoc, CatalogEntry, HealthStatus } from '../backup-types.js';

/** The catalog entry of a stored row. */
export function toCatalogEntry(row: BackupRow): CatalogEntry {
  return {
    manifest: JSON.parse(row.manifestJson) as BackupManifestDoc,
    lastHealthStatus: (row.lastHealthStatus as HealthStatus | null) ?? null,
    lastVerifiedAt: row.lastVerifiedAt,
  };
}

/** The catalog row of a manifest (capture and rebuild insert these). */
export function rowOfManifest(manifest: BackupManifestDoc) {
  return {
    tenant: manifest.tenant,
    id: manifest.backupId,
    name: manifest.name,
    kind: manifest.kind,
    treeName: manifest.treeName,
    keyPrefix: manifest.keyPrefix,
    baseBackupId: manifest.baseBackupId,
    setId: manifest.setId,
    physicalTreeId: manifest.physicalTreeId,
    createdAt: manifest.createdAt,
    completedAt: manifest.completedAt,
    toSequence: manifest.toSequence,
    manifestJson: JSON.stringify(manifest),
  };
}
