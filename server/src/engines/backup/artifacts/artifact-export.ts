import { open, type FileHandle } from 'node:fs/promises';
import { StoreError } from '../../errors.js';
import type { ArtifactLayout } from './artifact-paths.js';
import type { ArtifactRef, SignalOptions } from './artifact-types.js';
import { errnoCode, throwIfAborted } from './durable-fs.js';
import { OffThreadSha256 } from './file-hash-worker.js';

/**
 * The stream pass reads the file in blocks this large (one read, a libuv round trip, per 64 KiB
 * chunk cost more than hashing and framing it) and slices a block into chunks, so at most one
 * block is read ahead of the one a slow client is being sent.
 */
const READ_BLOCK = 1024 * 1024;
/**
 * One message per read block, the largest DESIGN.md §3 allows (64 KiB-1 MiB): every message
 * costs a trip through connect's stream pipeline, a serialization, an envelope and an awaited
 * write, whatever its size, and 64 KiB ones held h2c export near half the disk's pace
 * (docs/performance.md, "Issue 25: export at the speed of the disk"). A message of 1 MiB and a
 * few bytes stays well inside STORE_MAX_MESSAGE_BYTES (4 MiB); Envoy streams bodies with no
 * per-message limit, and the console's connect-web transport sets no read limit.
 */
export const DEFAULT_EXPORT_CHUNK_BYTES = READ_BLOCK;
/**
 * The first read is smaller: its chunk reaches the client sooner and the client starts hashing
 * while the server reads the first full block, instead of both waiting for a megabyte to be read,
 * sent and reassembled (about 1 ms of a warm 13 MB export). At least COPY_BELOW_BYTES of the
 * export framing, so it too goes out uncopied.
 */
const FIRST_READ_BYTES = 256 * 1024;

export interface ExportOptions extends SignalOptions {
  /** Largest chunk handed out; the last chunk may be shorter. */
  chunkSize?: number;
}

function dataLoss(artifactId: string, why: string): StoreError {
  return new StoreError('data_loss', `artifact ${artifactId} cannot be exported: ${why}`);
}

/** Fills `buffer` from `position` unless the file ends first; returns the part filled. */
async function readInto(handle: FileHandle, buffer: Buffer, position: number): Promise<Buffer> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      buffer.length - filled,
      position + filled,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * What of the last block waits for the whole artifact's hash: the rest of that block goes out
 * while the worker hashes it, so the client's own hash of it overlaps the server's. Holding the
 * whole last block back instead made every export wait, at its end, for a megabyte hashed on each
 * side in turn (about 1.5 ms, a tenth of a warm 13 MB export: docs/performance.md, rows 16-18).
 */
export const VERIFIED_TAIL_BYTES = 64 * 1024;

/** The last block split into what goes out while it is hashed and the tail (never empty) held. */
export function splitVerifiedTail(block: Buffer): [head: Buffer, tail: Buffer] {
  const at = block.length - Math.min(VERIFIED_TAIL_BYTES, block.length);
  return [block.subarray(0, at), block.subarray(at)];
}

/** `block` as chunks of at most `chunkSize`, stopping between chunks once `signal` aborts. */
export function* chunksOf(
  block: Buffer,
  chunkSize: number,
  signal: AbortSignal | undefined,
): Generator<Buffer, void, undefined> {
  for (let offset = 0; offset < block.length; offset += chunkSize) {
    yield block.subarray(offset, offset + chunkSize);
    throwIfAborted(signal);
  }
}

/** The chunk size asked for, or the default when it is no positive number. */
export function exportChunkSize(options: ExportOptions): number {
  // A size that is no positive number (NaN from a bad setting) would slice empty chunks forever
  // short of the data and end OK with nothing sent: fall back to the default instead.
  const asked = options.chunkSize ?? DEFAULT_EXPORT_CHUNK_BYTES;
  return Number.isFinite(asked) && asked >= 1 ? Math.floor(asked) : DEFAULT_EXPORT_CHUNK_BYTES;
}

/**
 * Two read blocks in shared memory, used in turn: the hash worker reads a block where it lies
 * (no copy per block, no fresh 1 MiB allocation per read). Block n+1 is read into the other slot
 * while the worker hashes block n; a slot is reused only after its hash is done and every chunk
 * sliced from it has been taken by the consumer, which asks for the next chunk only once it is
 * done with the last (the server's export framing waits until Node has written a chunk out).
 */
export function sharedBlocks(size: number): [Buffer, Buffer] {
  const length = Math.min(READ_BLOCK, Math.max(1, size));
  if (length === READ_BLOCK) {
    const spare = spareBlocks.pop();
    if (spare) return spare;
  }
  return [Buffer.from(new SharedArrayBuffer(length)), Buffer.from(new SharedArrayBuffer(length))];
}

/**
 * Full-size pairs kept between exports. A fresh pair is a zeroed 2 MiB allocation whose every
 * 4 KiB page faults on the first read into it: about 1 ms of CPU per export, a twentieth of a
 * warm 13 MB one (docs/performance.md, rows 16-18). A reused block still holds the bytes of an
 * earlier export (maybe another tenant's), but nothing hands out more of a block than the read
 * that just filled it.
 */
const spareBlocks: Array<[Buffer, Buffer]> = [];
const MAX_SPARE_PAIRS = 4;

/** Gives a pair back once its export ended: no read, hash or write of it is still to come. */
export function releaseBlocks(pair: [Buffer, Buffer]): void {
  if (pair[0].length === READ_BLOCK && spareBlocks.length < MAX_SPARE_PAIRS) spareBlocks.push(pair);
}

/**
 * Streams an artifact's STORED bytes (what the manifest's sha256 covers) as chunks of at most
 * `chunkSize`, pulled one at a time so a slow client holds back the disk (at most one READ_BLOCK
 * read ahead).
 *
 * One pass: every block is hashed (on a worker thread) while its chunks go out, and the final
 * block is held back until the whole file's hash matches the manifest's. A damaged artifact
 * therefore ends in DataLoss before the chunk that would complete it, so no client ever holds a
 * whole artifact that fails its checksum, and a size that differs from the manifest fails before
 * the first byte. A byte flipped at rest is caught at the end of the stream, not before the first
 * byte: verifying the whole file first cost a second read and hash, delayed the first byte by the
 * time it takes to hash the artifact, and halved the export rate (docs/performance.md, row 4).
 * Health checks and scrubs still find damage at rest without an export, and the console asks for
 * an explicit override before exporting a backup whose last check found it damaged.
 *
 * A chunk is a view of a read block that is reused two blocks later: a consumer that keeps chunks
 * copies them; the server writes each out before it asks for the next (transport/backup/
 * export-frames.ts).
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
  const chunkSize = exportChunkSize(options);
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
  let unfinished: OffThreadSha256 | undefined;
  let ahead: Promise<Buffer> | undefined;
  let slots: [Buffer, Buffer] | undefined;
  try {
    const size = (await handle.stat()).size;
    if (size !== artifact.byteSize) {
      throw dataLoss(
        artifact.artifactId,
        `stored ${size} bytes, manifest says ${artifact.byteSize}`,
      );
    }
    const hash = new OffThreadSha256();
    unfinished = hash;
    const blocks = sharedBlocks(size);
    slots = blocks;
    const readBlock = (n: number, position: number) => {
      const slot = blocks[n % 2]!;
      const reading = readInto(
        handle,
        slot.subarray(0, Math.min(n === 0 ? FIRST_READ_BYTES : slot.length, size - position)),
        position,
      );
      // Awaited in turn; a stream abandoned meanwhile must not leave it unhandled.
      reading.catch(() => undefined);
      return reading;
    };
    ahead = readBlock(0, 0);
    let hashed: Promise<unknown> = Promise.resolve();
    for (let position = 0, n = 0; position < size; n++) {
      throwIfAborted(signal);
      const block = await ahead!;
      ahead = undefined;
      if (block.length === 0) throw dataLoss(artifact.artifactId, 'the file was truncated');
      await hashed;
      hashed = hash.update(block);
      hashed.catch(() => undefined);
      position += block.length;
      // Block n+1 goes into the other slot while block n's chunks go out and the worker hashes
      // it: that slot held block n-1, whose hash is done and whose chunks were all taken.
      if (position < size) ahead = readBlock(n + 1, position);
      const [head, tail] = position >= size ? splitVerifiedTail(block) : [block, undefined];
      yield* chunksOf(head, chunkSize, signal);
      if (tail) {
        const digest = await hash.digest();
        unfinished = undefined; // the digest ended the worker's state
        if (digest !== expected) throw dataLoss(artifact.artifactId, 'checksum mismatch');
        yield* chunksOf(tail, chunkSize, signal);
      }
    }
  } finally {
    unfinished?.release();
    // A read still in flight must end before its handle closes.
    await ahead?.catch(() => undefined);
    // A chunk of 256 KiB or more was written out before the next was asked for; a smaller one
    // was copied; a hash still running for an abandoned export is discarded. An aborted export
    // may end while its last chunk still waits in a socket's buffer: its blocks are not reused.
    if (slots && !signal?.aborted) releaseBlocks(slots);
    await handle.close();
  }
}
