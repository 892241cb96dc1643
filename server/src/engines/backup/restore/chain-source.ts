import { getBackupRow } from '../../../storage/backup/backup-store.js';
import type { Storage } from '../../../storage/database.js';
import { StoreError, failedPrecondition, notFound } from '../../errors.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { BackupManifestDoc } from '../backup-types.js';

/** The manifests of a backup's chain, full first, this backup last. */
export type ManifestChain = BackupManifestDoc[];

const MAX_CHAIN = 10_000;

async function walk(
  backupId: string,
  load: (id: string) => Promise<BackupManifestDoc | undefined>,
): Promise<ManifestChain> {
  const first = await load(backupId);
  if (!first) throw notFound(`backup ${backupId} does not exist`);
  const chain = [first];
  for (let base = first.baseBackupId; base !== null;) {
    if (chain.length > MAX_CHAIN || chain.some((m) => m.backupId === base)) {
      throw failedPrecondition(`the chain of backup ${backupId} loops`);
    }
    const manifest = await load(base);
    if (!manifest) {
      throw failedPrecondition(`the chain of backup ${backupId} is broken: ${base} is missing`);
    }
    chain.unshift(manifest);
    base = manifest.baseBackupId;
  }
  return chain;
}

/** The chain as the catalog knows it (hot restore). */
export function chainFromCatalog(
  storage: Storage,
  tenant: string,
  backupId: string,
): Promise<ManifestChain> {
  return walk(backupId, async (id) => {
    const row = await getBackupRow(storage, tenant, id);
    return row ? (JSON.parse(row.manifestJson) as BackupManifestDoc) : undefined;
  });
}

/** The chain from the manifests in the artifact store alone (cold restore: catalog lost). */
export function chainFromManifests(
  artifacts: ArtifactStore,
  tenant: string,
  backupId: string,
): Promise<ManifestChain> {
  return walk(backupId, async (id) => {
    try {
      const stored = await artifacts.readManifest<BackupManifestDoc>(tenant, id);
      return stored.manifest;
    } catch (error) {
      if (error instanceof StoreError && error.code === 'not_found') return undefined;
      throw error;
    }
  });
}
