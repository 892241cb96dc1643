import { createHash } from 'node:crypto';
import { isStoreError } from '../../../errors.js';
import { type ArtifactByteSource, dataLoss } from '../artifact-reader.js';
import type { ArtifactRef, ArtifactVerification, SignalOptions } from '../artifact-types.js';
import { throwIfAborted } from '../durable-fs.js';
import { artifactStoreFailure } from './s3-artifact-keys.js';
import type { S3ObjectStore } from './s3-object-store.js';

/**
 * Where a verified read (readVerifiedBatches) takes an artifact's object from. An object that is
 * gone is DataLoss (the catalog or a manifest says it exists); a server that stops answering is
 * Unavailable, naming the store; neither is taken for damaged bytes.
 */
export function objectSource(
  objects: S3ObjectStore,
  where: string,
  key: string,
  artifact: ArtifactRef,
  options: SignalOptions,
): ArtifactByteSource {
  return {
    open: async () =>
      (await objects.get(key, options.signal ? { signal: options.signal } : {})).body,
    failure: (error) => readFailure(error, where, artifact, options.signal),
  };
}

/** The error a read of an artifact's object ends in (see objectSource). */
export function readFailure(
  error: unknown,
  where: string,
  artifact: ArtifactRef,
  signal: AbortSignal | undefined,
): unknown {
  if (isStoreError(error) && error.code === 'not_found' && !signal?.aborted) {
    return dataLoss(artifact.artifactId, 'the object is missing');
  }
  return artifactStoreFailure(where, error, signal);
}

/**
 * Re-hashes an artifact's object against its manifest entry. A missing object, another size or
 * a sha256 metadata that differs is settled without reading the bytes; an unreachable server is
 * an error (the check could not be made), never a verdict on the backup.
 */
export async function verifyObject(
  objects: S3ObjectStore,
  where: string,
  key: string,
  artifact: ArtifactRef,
  options: SignalOptions = {},
): Promise<ArtifactVerification> {
  throwIfAborted(options.signal);
  let info;
  try {
    info = await objects.head(key, options.signal);
  } catch (error) {
    throw artifactStoreFailure(where, error, options.signal);
  }
  if (!info) return { ok: false, problem: 'missing', bytesRead: 0 };
  if (info.bytes !== artifact.byteSize) {
    const detail = `stored ${info.bytes} bytes, manifest says ${artifact.byteSize}`;
    return { ok: false, problem: 'size_mismatch', detail, bytesRead: 0 };
  }
  const expected = artifact.sha256.toLowerCase();
  if (info.sha256 !== undefined && info.sha256 !== expected) {
    const detail = 'the sha256 recorded with the object differs from the manifest';
    return { ok: false, problem: 'checksum_mismatch', detail, bytesRead: 0 };
  }
  const hash = createHash('sha256');
  let bytesRead = 0;
  try {
    const { body } = await objects.get(key, options.signal ? { signal: options.signal } : {});
    for await (const chunk of body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytesRead += chunk.length;
    }
  } catch (error) {
    const failure = readFailure(error, where, artifact, options.signal);
    if (isStoreError(failure) && failure.code === 'data_loss') {
      return { ok: false, problem: 'missing', bytesRead };
    }
    throw failure;
  }
  if (bytesRead !== artifact.byteSize) {
    const detail = `read ${bytesRead} bytes, manifest says ${artifact.byteSize}`;
    return { ok: false, problem: 'size_mismatch', detail, bytesRead };
  }
  if (hash.digest('hex') !== expected) {
    return { ok: false, problem: 'checksum_mismatch', detail: 'sha256 differs', bytesRead };
  }
  return { ok: true, bytesRead };
}
