import { open, type FileHandle } from 'node:fs/promises';
import { StoreError } from '../../errors.js';
import type { ArtifactLayout } from './artifact-paths.js';
import type { ArtifactRef, SignalOptions } from './artifact-types.js';
import { errnoCode, throwIfAborted } from './durable-fs.js';
import { OffThreadSha256, sha256OfOpenFile } from './file-hash-worker.js';

/** DESIGN.md §3: export chunks default to 64 KiB. */
export const DEFAULT_EXPORT_CHUNK_BYTES = 64 * 1024;
/**
 * The stream pass reads the file in blocks this large (one read, a libuv round trip, per 64 KiB
 * chunk cost more than hashing and framing it) and slices a block into chunks, so at most one
 * block is read ahead of a slow client.
 */
const READ_BLOCK = 1024 * 1024;

export interface ExportOptions extends SignalOptions {
  /** Largest chunk handed out; the last chunk may be shorter. */
  chunkSize?: number;
}

function dataLoss(artifactId: string, why: string): StoreError {
  return new StoreError('data_loss', `artifact ${artifactId} cannot be exported: ${why}`);
}

/** Reads exactly `length` bytes at `position` unless the file ends first. */
async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/**
 * Streams an artifact's STORED bytes (what the manifest's sha256 covers) as chunks of at most
 * `chunkSize`, pulled one at a time so a slow client holds back the disk (at most one READ_BLOCK
 * read ahead).
 *
 * Never sends corrupt bytes, at the price of reading the file twice:
 * 1. a first pass hashes the whole file; a mismatch fails before any chunk is yielded, so the
 *    common case (damage at rest) sends nothing at all;
 * 2. the second pass hashes again while streaming, and the final block is held back until that
 *    hash matches. If the file changed between the passes, earlier chunks have gone out, but the
 *    stream ends in DataLoss instead of completing, so no client ever holds a whole artifact
 *    that fails its checksum. Buffering the artifact (memory) or copying it (disk) would close
 *    even that window; two sequential reads are the cheaper guarantee.
 * Both passes read one open file handle, so a rename over the path between them cannot mix two
 * files' bytes.
 *
 * The caller resolves `artifact` from the catalog or manifest (an id not there is NotFound, its
 * check); a file missing for a catalogued artifact is therefore DataLoss here, not NotFound.
 */
export async function* exportArtifact(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  artifact: ArtifactRef,
  options: ExportOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const path = layout.artifactPath(tenant, backupId, artifact.artifactId);
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_EXPORT_CHUNK_BYTES));
  const { signal } = options;
  const expected = artifact.sha256.toLowerCase();
  throwIfAborted(signal);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw dataLoss(artifact.artifactId, 'the file is missing');
    throw error;
  }
  let second: OffThreadSha256 | undefined;
  try {
    const size = (await handle.stat()).size;
    if (size !== artifact.byteSize) {
      throw dataLoss(
        artifact.artifactId,
        `stored ${size} bytes, manifest says ${artifact.byteSize}`,
      );
    }
    // Pass 1: verify before sending anything — on a worker thread, so this long hash does not
    // stall the server's other calls. Not abandoned on abort: the handle must outlive the read.
    const first = await sha256OfOpenFile(handle.fd, size);
    if (first.bytes < size) throw dataLoss(artifact.artifactId, 'the file was truncated');
    if (first.sha256 !== expected) throw dataLoss(artifact.artifactId, 'checksum mismatch');
    throwIfAborted(signal);

    // Pass 2: stream, re-hashing (on the worker too) every block before its chunks go out; the
    // last block is held back until the whole hash is proven. The worker hashes block n while
    // block n+1 is read, and at most two blocks wait for it.
    const hash = new OffThreadSha256();
    second = hash;
    let hashed: Promise<unknown> = Promise.resolve();
    for (let position = 0; position < size;) {
      throwIfAborted(signal);
      const block = await readAt(handle, Math.min(READ_BLOCK, size - position), position);
      if (block.length === 0) throw dataLoss(artifact.artifactId, 'the file changed while read');
      await hashed;
      hashed = hash.update(block);
      // Awaited before the next block; a stream abandoned meanwhile must not leave it unhandled.
      hashed.catch(() => undefined);
      position += block.length;
      if (position >= size && (await hash.digest()) !== expected) {
        throw dataLoss(artifact.artifactId, 'the file changed while it was exported');
      }
      if (position >= size) second = undefined; // the digest ended the worker's state
      for (let offset = 0; offset < block.length; offset += chunkSize) {
        yield block.subarray(offset, offset + chunkSize);
        throwIfAborted(signal);
      }
    }
  } finally {
    second?.release();
    await handle.close();
  }
}
