import type { ServerConfig } from '../../../config/settings.js';
import type { ArtifactStore } from './artifact-store.js';
import { DirectoryArtifactStore } from './directory-artifact-store.js';
import { startHashWorker } from './file-hash-worker.js';
import {
  S3ObjectStore,
  checkObjectStoreAccess,
  createS3Client,
  s3SettingsFrom,
} from './object-store/index.js';
import { S3ArtifactStore } from './object-store/s3-artifact-store.js';

/**
 * The artifact store STORE_ARTIFACT_URL names: a directory, or a bucket and prefix in
 * S3-compatible object storage. For S3 the server must reach the bucket with the credentials the
 * SDK's provider chain finds before it starts: otherwise this throws ConfigError naming the
 * setting at fault and the cause (never a secret), and the server refuses to start.
 */
export async function openArtifactStore(
  config: Pick<ServerConfig, 'artifactStore' | 's3Endpoint' | 's3Region' | 's3ForcePathStyle'>,
): Promise<ArtifactStore> {
  // Both stores verify exports on the hash worker: booted now, it is ready for the first one.
  startHashWorker();
  const location = config.artifactStore;
  if (location.kind === 'directory') return new DirectoryArtifactStore(location.path);
  const settings = s3SettingsFrom(config);
  const client = createS3Client(settings);
  await checkObjectStoreAccess(client, location, settings);
  return new S3ArtifactStore(new S3ObjectStore(client, location));
}
