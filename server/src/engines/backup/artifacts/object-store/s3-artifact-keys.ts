import { StoreError, isStoreError } from '../../../errors.js';
import {
  ARTIFACT_SUFFIX,
  MANIFEST_FILE,
  assertArtifactId,
  assertSafeSegment,
} from '../artifact-paths.js';
import { cancelledError } from '../durable-fs.js';
import { s3Failure } from './s3-errors.js';

/** `<tenant>/<backupId>/`: the key prefix of one backup below the store's prefix. */
export function backupPrefix(tenant: string, backupId: string): string {
  assertSafeSegment(tenant, 'tenant');
  assertSafeSegment(backupId, 'backup_id');
  return `${tenant}/${backupId}/`;
}

/** `<tenant>/<backupId>/<artifactId>.ndjson.gz`. */
export function artifactKey(tenant: string, backupId: string, artifactId: string): string {
  assertArtifactId(artifactId);
  return backupPrefix(tenant, backupId) + artifactId + ARTIFACT_SUFFIX;
}

/** `<tenant>/<backupId>/manifest.json`. */
export function manifestKey(tenant: string, backupId: string): string {
  return backupPrefix(tenant, backupId) + MANIFEST_FILE;
}

/** Codes that say something about the request or the bytes, not about the store's health. */
const OWN_CODES = new Set(['cancelled', 'data_loss', 'invalid_argument', 'not_found']);

/**
 * The error a caller sees when the object store fails: its code (Unavailable for an unreachable
 * server, FailedPrecondition for refused credentials or a gone bucket), and a message that names
 * the artifact store and the cause, never a secret (s3Failure redacts).
 */
export function artifactStoreFailure(where: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return cancelledError();
  if (isStoreError(error)) {
    if (OWN_CODES.has(error.code) || error.message.startsWith('artifact store ')) return error;
    return new StoreError(error.code, `artifact store ${where}: ${error.message}`);
  }
  const code = (error as { code?: unknown } | null)?.code;
  // A response cut off mid-body: the server or the network went away, not the bytes at rest.
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE') {
    const message = (error as Error).message;
    return new StoreError(
      'unavailable',
      `artifact store ${where}: the connection broke (${message})`,
    );
  }
  const mapped = s3Failure(error, `artifact store ${where}`);
  return mapped;
}
