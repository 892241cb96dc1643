import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isStoreError } from '../../../errors.js';
import { DEFAULT_EXPORT_CHUNK_BYTES, type ExportOptions } from '../artifact-export.js';
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

function readFailure(
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

/**
 * Streams an artifact's object as chunks of at most `chunkSize`, hashing on the way. As on the
 * directory, a size or recorded sha256 that differs fails before the first byte, and the last
 * chunk is held back until the whole hash matched: a damaged object ends in DataLoss and no
 * client holds all of its bytes. A server that goes away mid-stream ends it Unavailable.
 */
export async function* exportObject(
  objects: S3ObjectStore,
  where: string,
  key: string,
  artifact: ArtifactRef,
  options: ExportOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const asked = options.chunkSize ?? DEFAULT_EXPORT_CHUNK_BYTES;
  const chunkSize =
    Number.isFinite(asked) && asked >= 1 ? Math.floor(asked) : DEFAULT_EXPORT_CHUNK_BYTES;
  const { signal } = options;
  const expected = artifact.sha256.toLowerCase();
  throwIfAborted(signal);
  let body: Readable;
  try {
    const read = await objects.get(key, signal ? { signal } : {});
    body = read.body;
    if (read.objectBytes !== artifact.byteSize) {
      body.destroy();
      const why = `stored ${read.objectBytes} bytes, manifest says ${artifact.byteSize}`;
      throw exportLoss(artifact, why);
    }
    if (read.sha256 !== undefined && read.sha256 !== expected) {
      body.destroy();
      throw exportLoss(artifact, 'the sha256 recorded with the object differs from the manifest');
    }
  } catch (error) {
    throw readFailure(error, where, artifact, signal);
  }
  const hash = createHash('sha256');
  let seen = 0;
  let held: Buffer | undefined;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      seen += chunk.length;
      for (let offset = 0; offset < chunk.length; offset += chunkSize) {
        if (held) {
          yield held;
          throwIfAborted(signal);
        }
        held = chunk.subarray(offset, offset + chunkSize);
      }
    }
  } catch (error) {
    throw readFailure(error, where, artifact, signal);
  } finally {
    body.destroy();
  }
  if (seen !== artifact.byteSize)
    throw exportLoss(artifact, `read ${seen} bytes of ${artifact.byteSize}`);
  if (hash.digest('hex') !== expected) throw exportLoss(artifact, 'checksum mismatch');
  if (held) yield held;
}

function exportLoss(artifact: ArtifactRef, why: string) {
  return dataLoss(artifact.artifactId, why);
}
