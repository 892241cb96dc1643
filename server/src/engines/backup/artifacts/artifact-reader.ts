import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { StoreError, isStoreError } from '../../errors.js';
import type { ArtifactLayout } from './artifact-paths.js';
import type {
  ArtifactRecord,
  ArtifactRef,
  ArtifactVerification,
  SignalOptions,
} from './artifact-types.js';
import { cancelledError, errnoCode, throwIfAborted } from './durable-fs.js';
import { LineSplitter, RecordLineDecoder } from './ndjson-codec.js';

const READ_CHUNK = 256 * 1024;

/** Size of the file, or null when it does not exist. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    return info.size;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw error;
  }
}

/** Re-hashes a whole stored artifact (streaming) and compares it with its manifest entry. */
export async function verifyArtifact(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: SignalOptions = {},
): Promise<ArtifactVerification> {
  const path = layout.artifactPath(tenant, backupId, artifact.artifactId);
  let size: number | null;
  try {
    size = await sizeOf(path);
  } catch (error) {
    return { ok: false, problem: 'unreadable', detail: describe(error), bytesRead: 0 };
  }
  if (size === null) return { ok: false, problem: 'missing', bytesRead: 0 };
  // A size mismatch is already conclusive; hashing the file would not change the verdict.
  if (size !== artifact.byteSize) {
    const detail = `stored ${size} bytes, manifest says ${artifact.byteSize}`;
    return { ok: false, problem: 'size_mismatch', detail, bytesRead: 0 };
  }
  return verifyBytes(
    () => createReadStream(path, { highWaterMark: READ_CHUNK, signal: options.signal }),
    artifact,
    options,
    describe,
  );
}

/**
 * Hashes a stored artifact's bytes as they stream from `open` and compares them with its
 * manifest entry; a read that fails is `unreadable` (described by `explain`), not an error.
 */
export async function verifyBytes(
  open: () => Readable | Promise<Readable>,
  artifact: ArtifactRef,
  options: SignalOptions,
  explain: (error: unknown) => string,
): Promise<ArtifactVerification> {
  const hash = createHash('sha256');
  let bytesRead = 0;
  try {
    const stream = await open();
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytesRead += chunk.length;
    }
  } catch (error) {
    throwIfAborted(options.signal);
    return { ok: false, problem: 'unreadable', detail: explain(error), bytesRead };
  }
  if (bytesRead !== artifact.byteSize) {
    const detail = `read ${bytesRead} bytes, manifest says ${artifact.byteSize}`;
    return { ok: false, problem: 'size_mismatch', detail, bytesRead };
  }
  if (hash.digest('hex') !== artifact.sha256.toLowerCase()) {
    return { ok: false, problem: 'checksum_mismatch', detail: 'sha256 differs', bytesRead };
  }
  return { ok: true, bytesRead };
}

/**
 * Streams an artifact's records in batches (one per decompressed chunk), hashing the stored bytes
 * on the way. Batches are handed out before the final hash is known, so a caller must treat them
 * as provisional until iteration ends without error: restore writes into a fresh physical tree and
 * swaps only after every artifact read cleanly (and verifies the whole chain before it starts).
 */
export function readArtifactBatches(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: SignalOptions = {},
): AsyncGenerator<ArtifactRecord[], void, undefined> {
  return readVerifiedBatches(
    fileSource(layout, tenant, backupId, artifact, options),
    artifact,
    new RecordLineDecoder(),
    options,
  );
}

/**
 * The same verified stream as `readArtifactBatches`, as the raw lines (without their newline)
 * instead of parsed records, for a reader that parses only the lines it needs (a comparison).
 * A line's content is not checked here; the checksum and entry count still are.
 */
export function readArtifactLineBatches(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: SignalOptions = {},
): AsyncGenerator<string[], void, undefined> {
  return readVerifiedBatches(
    fileSource(layout, tenant, backupId, artifact, options),
    artifact,
    new LineSplitter(),
    options,
  );
}

/** Where a verified read takes an artifact's stored bytes from, and what its failures mean. */
export interface ArtifactByteSource {
  open(): Readable | Promise<Readable>;
  /** Maps a failure of the source (not of gunzip or the checksum) to what callers see. */
  failure(error: unknown): unknown;
}

function fileSource(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: SignalOptions,
): ArtifactByteSource {
  const path = layout.artifactPath(tenant, backupId, artifact.artifactId);
  return {
    open: () => createReadStream(path, { highWaterMark: READ_CHUNK, signal: options.signal }),
    failure: (error) => readFailure(error, artifact.artifactId, options.signal),
  };
}

/**
 * Streams an artifact's lines in batches (one per decompressed chunk) from `source`, hashing the
 * stored bytes on the way; DataLoss at the end if the hash, size or entry count differ.
 */
export async function* readVerifiedBatches<T>(
  from: ArtifactByteSource,
  artifact: ArtifactRef,
  lines: { push(chunk: Buffer): T[]; end(): void },
  options: SignalOptions,
): AsyncGenerator<T[], void, undefined> {
  throwIfAborted(options.signal);
  const hash = createHash('sha256');
  let storedBytes = 0;
  let entries = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      storedBytes += chunk.length;
      callback(null, chunk);
    },
  });
  let source: Readable;
  try {
    source = await from.open();
  } catch (error) {
    throw from.failure(error);
  }
  // Errors surface through the iteration of the last stream; the callback only keeps them handled.
  const gunzip = pipeline(source, tap, createGunzip({ chunkSize: 128 * 1024 }), () => undefined);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      throwIfAborted(options.signal);
      const batch = lines.push(chunk);
      entries += batch.length;
      if (batch.length > 0) yield batch;
    }
    lines.end();
  } catch (error) {
    throw gunzipFailure(error, artifact.artifactId, options.signal) ?? from.failure(error);
  } finally {
    gunzip.destroy();
  }
  if (storedBytes !== artifact.byteSize || hash.digest('hex') !== artifact.sha256.toLowerCase()) {
    throw dataLoss(artifact.artifactId, 'its bytes do not match the manifest checksum');
  }
  if (artifact.entryCount !== undefined && entries !== artifact.entryCount) {
    throw dataLoss(artifact.artifactId, `it holds ${entries} entries, not ${artifact.entryCount}`);
  }
}

/** Streams an artifact's records one by one; see `readArtifactBatches` for the hash guarantee. */
export async function* readArtifactRecords(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: SignalOptions = {},
): AsyncGenerator<ArtifactRecord, void, undefined> {
  for await (const batch of readArtifactBatches(layout, tenant, backupId, artifact, options)) {
    yield* batch;
  }
}

export function dataLoss(artifactId: string, why: string): StoreError {
  return new StoreError('data_loss', `artifact ${artifactId} is corrupt: ${why}`);
}

/** Cancel, a StoreError or damaged gzip, whatever the source; undefined for source failures. */
function gunzipFailure(error: unknown, artifactId: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return cancelledError();
  if (isStoreError(error)) return error;
  const code = errnoCode(error);
  if (code?.startsWith('Z_'))
    return dataLoss(artifactId, 'it is not valid gzip (damaged or truncated)');
  return undefined;
}

/** Maps a file read failure: cancel stays cancel, anything about the bytes or the file is DataLoss. */
function readFailure(error: unknown, artifactId: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return cancelledError();
  if (isStoreError(error)) return error;
  const code = errnoCode(error);
  // The caller read this artifact's id from a manifest or the catalog: a missing file of a
  // catalogued backup is lost data, not an unknown name.
  if (code === 'ENOENT') return dataLoss(artifactId, 'the file is missing');
  if (code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return dataLoss(artifactId, 'it is not valid gzip (damaged or truncated)');
  }
  return error;
}

function describe(error: unknown): string {
  const code = errnoCode(error);
  return code ? `read failed (${code})` : 'read failed';
}
