import { createHash } from 'node:crypto';
import { lstat, open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlibConstants } from 'node:zlib';
import { StoreError } from '../../errors.js';
import { ARTIFACT_SUFFIX } from './artifact-paths.js';
import type { WrittenArtifact } from './artifact-types.js';
import { ParallelGzip } from './parallel-gzip.js';
import {
  PRIVATE_FILE_MODE,
  errnoCode,
  fsyncDirectory,
  removeQuietly,
  tempName,
} from './durable-fs.js';

/** Makes the writable a part's compressed bytes go to; a seam so tests can inject disk faults. */
export type SinkFactory = (handle: FileHandle) => Writable;

/** Writes every byte of `chunks` at the file's current position (a short write is retried). */
async function writeFully(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const { bytesWritten } = await handle.writev(chunks);
  let rest = bytesWritten === total ? null : Buffer.concat(chunks).subarray(bytesWritten);
  while (rest && rest.length > 0) {
    const { bytesWritten: n } = await handle.write(rest);
    if (n === 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    rest = rest.subarray(n);
  }
}

/**
 * Writes through the FileHandle, which only the part closes. An fs.WriteStream would close the
 * descriptor itself when destroyed (even with autoClose off), and the part's own close could then
 * hit a reused descriptor; a FileHandle instead waits for in-flight writes before closing.
 */
const defaultSink: SinkFactory = (handle) =>
  new Writable({
    highWaterMark: 64 * 1024,
    writev(chunks, callback) {
      writeFully(
        handle,
        chunks.map((c) => c.chunk as Buffer),
      ).then(() => callback(), callback);
    },
  });

export interface PartFileOptions {
  gzipLevel?: number;
  /** Uncompressed bytes per gzip member (see ParallelGzip); tests make it small. */
  gzipBlockBytes?: number;
  sink?: SinkFactory;
}

/**
 * Members of 256 KiB, three compressing at once: on two cores a capture's gzip keeps pace with
 * the database's read, and an incremental's last megabyte is compressed in about one member's
 * time after the read ends instead of in four. Three, not more: libuv's pool has four threads
 * and the file writes need one.
 */
const GZIP_BLOCK_BYTES = 256 * 1024;
const GZIP_PARALLEL = 3;

/**
 * One artifact being written: text → gzip → (sha256 + byte count) → temp file. The temp file is
 * opened before any stream exists, so cleanup never races a lazy open that would recreate it.
 */
export class PartFile {
  entryCount = 0;
  tombstoneCount = 0;
  uncompressedBytes = 0;
  private storedBytes = 0;
  private readonly hash = createHash('sha256');
  private readonly done: Promise<void>;
  private handleClosed = false;
  private renamed = false;

  private constructor(
    readonly artifactId: string,
    private readonly dir: string,
    private readonly tempPath: string,
    private readonly finalPath: string,
    private readonly handle: FileHandle,
    private readonly gzip: ParallelGzip,
    private readonly sink: Writable,
  ) {
    const tap = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        // The checksum covers the STORED bytes (what export sends and health checks re-hash).
        this.hash.update(chunk);
        this.storedBytes += chunk.length;
        callback(null, chunk);
      },
    });
    this.done = pipeline(gzip, tap, sink);
    // A failure is observed through `done` by whoever awaits next; never leave it unhandled.
    this.done.catch(() => undefined);
  }

  /** Creates the temp file for `artifactId` in `dir` (which must exist). */
  static async create(
    dir: string,
    artifactId: string,
    options: PartFileOptions,
  ): Promise<PartFile> {
    const finalPath = join(dir, artifactId + ARTIFACT_SUFFIX);
    const exists = await lstat(finalPath).then(
      () => true,
      (error: unknown) => {
        if (errnoCode(error) === 'ENOENT') return false;
        throw error;
      },
    );
    // Never overwrite a finished artifact: a second capture under the same id is a bug upstream.
    if (exists) throw new StoreError('already_exists', `artifact ${artifactId} already exists`);
    const tempPath = join(dir, tempName(artifactId) + ARTIFACT_SUFFIX);
    const handle = await open(tempPath, 'wx', PRIVATE_FILE_MODE);
    try {
      const gzip = new ParallelGzip({
        level: options.gzipLevel ?? zlibConstants.Z_DEFAULT_COMPRESSION,
        blockBytes: options.gzipBlockBytes ?? GZIP_BLOCK_BYTES,
        parallel: GZIP_PARALLEL,
      });
      const sink = (options.sink ?? defaultSink)(handle);
      return new PartFile(artifactId, dir, tempPath, finalPath, handle, gzip, sink);
    } catch (error) {
      await handle.close();
      await removeQuietly(tempPath);
      throw error;
    }
  }

  /** Queues uncompressed bytes; false means wait for `drained()` before writing more. */
  write(bytes: Buffer): boolean {
    return this.gzip.write(bytes);
  }

  /** Resolves when gzip wants more input; rejects with the pipeline's error if it failed. */
  drained(): Promise<void> {
    const drain = new Promise<void>((resolve) => this.gzip.once('drain', resolve));
    return Promise.race([drain, this.done]);
  }

  /** Stops the pipeline at once (abort); `discard` then removes the file. */
  destroy(error: Error): void {
    this.gzip.destroy(error);
  }

  /** Flushes, fsyncs, renames to the final name and fsyncs the directory. */
  async finish(lastBytes: Buffer): Promise<WrittenArtifact> {
    this.gzip.end(lastBytes);
    await this.done;
    await this.handle.sync();
    this.handleClosed = true;
    await this.handle.close();
    await rename(this.tempPath, this.finalPath);
    this.renamed = true;
    await fsyncDirectory(this.dir);
    return {
      artifactId: this.artifactId,
      byteSize: this.storedBytes,
      sha256: this.hash.digest('hex'),
      entryCount: this.entryCount,
      tombstoneCount: this.tombstoneCount,
      uncompressedBytes: this.uncompressedBytes,
    };
  }

  /** Tears the part down and deletes whatever file it left (temp or, if renamed, final). */
  async discard(): Promise<void> {
    if (!this.gzip.destroyed) this.gzip.destroy();
    await this.done.catch(() => undefined);
    if (!this.sink.destroyed) this.sink.destroy();
    if (!this.handleClosed) {
      this.handleClosed = true;
      // close() waits for writes still in flight, so the unlink below is the last word.
      await this.handle.close().catch(() => undefined);
    }
    await removeQuietly(this.renamed ? this.finalPath : this.tempPath);
  }
}
