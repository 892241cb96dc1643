import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { StoreError } from '../../../errors.js';
import type { BackupFilesRef } from '../artifact-store.js';
import { assertSafeSegment } from '../artifact-paths.js';
import {
  artifactKey,
  artifactStoreFailure,
  backupPrefix,
  manifestKey,
} from './s3-artifact-keys.js';
import type { RefusedDelete, S3ObjectStore } from './s3-object-store.js';

/** DeleteObjects rounds for the keys a server refused: a refusal may be passing (SlowDown). */
const DELETE_ATTEMPTS = 3;
/** DeleteObjects requests in flight at once. */
const REQUESTS_IN_FLIGHT = 8;
/**
 * The fewest keys a request carries when a batch is split to fill the requests in flight: a
 * server deletes one request's keys one after another (rclone about 2.5 ms each), so 200 keys
 * go faster as 8 requests of 25 than as one of 200; AWS S3 gains the same way.
 */
const MIN_KEYS_PER_REQUEST = 25;
/** The most a DeleteObjects request may carry (S3's limit). */
const MAX_KEYS_PER_REQUEST = 1000;

export interface BatchDeleteTiming {
  /** Pause before the first retry of refused keys; doubled for each next one. */
  retryDelayMs?: number;
}

/**
 * Deletes many backups' objects by their known keys, no listing: every manifest of the batch
 * first (DeleteObjects of 25 to 1 000 keys, 8 at once), then the artifacts their manifests
 * list, then any multipart upload still open below them (one listing of the tenant's uploads).
 * A backup whose manifest the server refused keeps its artifacts too: never a manifest naming
 * artifacts that are gone. Keys refused are tried again; what is still refused fails the call
 * (Unavailable, naming the count and the first key and its reason) once everything else was
 * deleted. An object under a backup's prefix that its manifest does not list (a leftover of a
 * capture taken over) stays: no catalog row owns it any more, so scrub finds it and prunes it.
 */
export async function deleteBackupsObjects(
  objects: S3ObjectStore,
  where: string,
  tenant: string,
  backups: readonly BackupFilesRef[],
  timing: BatchDeleteTiming = {},
): Promise<void> {
  if (backups.length === 0) return;
  try {
    const byManifest = new Map(backups.map((b) => [manifestKey(tenant, b.backupId), b.backupId]));
    const manifestsLeft = await deleteWithRetries(objects, [...byManifest.keys()], timing);
    const keep = new Set(manifestsLeft.map((refused) => byManifest.get(refused.key)));
    const artifactKeys = backups
      .filter((b) => !keep.has(b.backupId))
      .flatMap((b) => b.artifactIds.map((id) => artifactKey(tenant, b.backupId, id)));
    const artifactsLeft = await deleteWithRetries(objects, artifactKeys, timing);
    const gone = backups.filter((b) => !keep.has(b.backupId)).map((b) => b.backupId);
    await abortUploadsOf(objects, tenant, gone);
    const left = [...manifestsLeft, ...artifactsLeft];
    const first = left[0];
    if (first) {
      const total = byManifest.size + artifactKeys.length;
      const why = `${first.code} ${first.message}`.trim();
      throw new StoreError(
        'unavailable',
        `${left.length} of ${total} objects of ${backups.length} backups were not deleted ` +
          `(${keep.size} manifests kept with their artifacts); the first, ` +
          `${objects.describe(first.key)}: ${why}`,
      );
    }
  } catch (error) {
    throw artifactStoreFailure(where, error);
  }
}

/** Deletes `keys`, retrying those the server refused; returns the ones still refused. */
async function deleteWithRetries(
  objects: S3ObjectStore,
  keys: readonly string[],
  timing: BatchDeleteTiming,
): Promise<RefusedDelete[]> {
  let pending = keys;
  let refused: RefusedDelete[] = [];
  let delay = timing.retryDelayMs ?? 200;
  for (let attempt = 1; pending.length > 0; attempt++) {
    refused = await deleteInRequests(objects, pending);
    if (refused.length === 0 || attempt === DELETE_ATTEMPTS) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay *= 2;
    pending = refused.map((r) => r.key);
  }
  return refused;
}

/** DeleteObjects of 25 to 1 000 keys each, up to 8 requests at once. */
async function deleteInRequests(
  objects: S3ObjectStore,
  keys: readonly string[],
): Promise<RefusedDelete[]> {
  const size = Math.min(
    MAX_KEYS_PER_REQUEST,
    Math.max(MIN_KEYS_PER_REQUEST, Math.ceil(keys.length / REQUESTS_IN_FLIGHT)),
  );
  const chunks: string[][] = [];
  for (let at = 0; at < keys.length; at += size) chunks.push(keys.slice(at, at + size));
  const refused: RefusedDelete[] = [];
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) refused.push(...(await objects.deleteObjects(chunks[next++]!)));
  };
  await Promise.all(Array.from({ length: Math.min(REQUESTS_IN_FLIGHT, chunks.length) }, worker));
  return refused;
}

/**
 * Aborts the multipart uploads still open below the deleted backups (a capture's lost abort).
 * One listing for the batch: the backup's own prefix for one backup, the tenant's for more.
 */
async function abortUploadsOf(
  objects: S3ObjectStore,
  tenant: string,
  backupIds: readonly string[],
): Promise<void> {
  if (backupIds.length === 0) return;
  assertSafeSegment(tenant, 'tenant');
  const prefix = backupIds.length === 1 ? backupPrefix(tenant, backupIds[0]!) : `${tenant}/`;
  const ids = new Set(backupIds);
  for await (const upload of objects.listIncompleteUploads(prefix)) {
    const backupId = upload.key.split('/')[1];
    if (backupId === undefined || !ids.has(backupId)) continue;
    await objects.client.send(
      new AbortMultipartUploadCommand({
        Bucket: objects.bucket,
        Key: upload.objectKey,
        UploadId: upload.uploadId,
      }),
    );
  }
}
