import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACT_SUFFIX, type ArtifactLayout } from './artifact-paths.js';
import type { WrittenArtifact } from './artifact-types.js';
import type { ArtifactWriterOptions } from './artifact-writer.js';
import { ensureDirectory, mapWriteError, removeQuietly } from './durable-fs.js';
import { PartFile } from './part-file.js';

/**
 * One artifact being written: uncompressed bytes in, gzip, hashed, stored. A file on disk
 * (PartFile) or a multipart upload (the S3 store's part); the writer rolls between them.
 */
export interface ArtifactPart {
  readonly artifactId: string;
  entryCount: number;
  tombstoneCount: number;
  uncompressedBytes: number;
  /** Queues uncompressed bytes; false means wait for `drained()` before writing more. */
  write(bytes: Buffer): boolean;
  /** Resolves when more may be written; rejects once the part failed. */
  drained(): Promise<void>;
  /** Stops at once (abort); `discard` then removes what the part stored. */
  destroy(error: Error): void;
  /** Writes the last bytes and makes the artifact durable (stored, size and sha256 known). */
  finish(lastBytes: Buffer): Promise<WrittenArtifact>;
  /** Tears the part down and removes whatever it stored, finished or not. */
  discard(): Promise<void>;
}

/** Where a writer's parts go: a backup directory or a backup's key prefix in a bucket. */
export interface PartTarget {
  openPart(artifactId: string): Promise<ArtifactPart>;
  /** After a failure or abort: removes the finished parts (and what else the target made). */
  removeWritten(finished: readonly WrittenArtifact[]): Promise<void>;
  /** The error callers see for a failure of the target (full disk, unreachable store…). */
  mapError(error: unknown): unknown;
}

/** A backup directory: `<root>/<tenant>/<backupId>`, made on the first part. */
export class DirectoryParts implements PartTarget {
  private readonly dir: string;
  private dirReady = false;

  constructor(
    layout: ArtifactLayout,
    tenant: string,
    backupId: string,
    private readonly options: ArtifactWriterOptions = {},
  ) {
    this.dir = layout.backupDir(tenant, backupId);
  }

  async openPart(artifactId: string): Promise<ArtifactPart> {
    if (!this.dirReady) {
      await ensureDirectory(this.dir);
      this.dirReady = true;
    }
    return PartFile.create(this.dir, artifactId, this.options);
  }

  async removeWritten(finished: readonly WrittenArtifact[]): Promise<void> {
    await Promise.all(
      finished.map((a) => removeQuietly(join(this.dir, a.artifactId + ARTIFACT_SUFFIX))),
    );
    // Drop the backup directory if this writer left it empty; a non-empty one is not ours alone.
    if (this.dirReady) await rmdir(this.dir).catch(() => undefined);
  }

  mapError(error: unknown): unknown {
    return mapWriteError(error);
  }
}
