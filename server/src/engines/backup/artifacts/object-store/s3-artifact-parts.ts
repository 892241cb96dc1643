import { constants as zlibConstants } from 'node:zlib';
import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { StoreError } from '../../../errors.js';
import type { ArtifactPart, PartTarget } from '../artifact-parts.js';
import type { WrittenArtifact } from '../artifact-types.js';
import type { ArtifactWriterOptions } from '../artifact-writer.js';
import { ParallelGzip } from '../parallel-gzip.js';
import { artifactKey, artifactStoreFailure, backupPrefix } from './s3-artifact-keys.js';
import type { S3ObjectStore } from './s3-object-store.js';
import type { RetriedCleanup } from './s3-retried-cleanup.js';
import type { StoredObject } from './s3-streaming-put.js';

/** Multipart sizes of an artifact upload; memory is about (queueSize + 1) × partSize. */
export interface UploadSizes {
  partSize?: number;
  queueSize?: number;
}

/** As the directory's parts: 256 KiB gzip members, three compressing at once. */
const GZIP_BLOCK_BYTES = 256 * 1024;
const GZIP_PARALLEL = 3;

/**
 * One artifact streamed into a multipart upload while it is written: text → parallel gzip →
 * (sha256 + byte count, in putStream) → parts of `partSize`. Nothing of it is held whole in
 * memory or on local disk. `finish` completes the upload, then checks with HEAD that the stored
 * object has the size (and, where kept, the sha256 metadata) that was streamed.
 */
export class S3Part implements ArtifactPart {
  entryCount = 0;
  tombstoneCount = 0;
  uncompressedBytes = 0;
  private readonly gzip: ParallelGzip;
  private readonly upload: Promise<StoredObject>;

  constructor(
    readonly artifactId: string,
    private readonly objects: S3ObjectStore,
    private readonly key: string,
    options: ArtifactWriterOptions & UploadSizes,
  ) {
    this.gzip = new ParallelGzip({
      level: options.gzipLevel ?? zlibConstants.Z_DEFAULT_COMPRESSION,
      blockBytes: options.gzipBlockBytes ?? GZIP_BLOCK_BYTES,
      parallel: GZIP_PARALLEL,
    });
    this.upload = objects.put(key, this.gzip, {
      contentType: 'application/gzip',
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.partSize !== undefined ? { partSize: options.partSize } : {}),
      ...(options.queueSize !== undefined ? { queueSize: options.queueSize } : {}),
    });
    // A failure is observed through `drained` or `finish`; never leave it unhandled meanwhile.
    this.upload.catch(() => undefined);
  }

  write(bytes: Buffer): boolean {
    return this.gzip.write(bytes);
  }

  drained(): Promise<void> {
    const drain = new Promise<void>((resolve) => this.gzip.once('drain', resolve));
    return Promise.race([drain, this.upload.then(() => undefined)]);
  }

  destroy(error: Error): void {
    this.gzip.destroy(error);
  }

  async finish(lastBytes: Buffer): Promise<WrittenArtifact> {
    this.gzip.end(lastBytes);
    const stored = await this.upload;
    const info = await this.objects.head(this.key);
    if (!info || info.bytes !== stored.bytes) {
      throw new StoreError(
        'data_loss',
        `${this.objects.describe(this.key)} holds ${info ? `${info.bytes} bytes` : 'nothing'} after its upload of ${stored.bytes} bytes completed`,
      );
    }
    if (info.sha256 !== undefined && info.sha256 !== stored.sha256) {
      throw new StoreError(
        'data_loss',
        `${this.objects.describe(this.key)} records sha256 ${info.sha256}, not the ${stored.sha256} streamed`,
      );
    }
    return {
      artifactId: this.artifactId,
      byteSize: stored.bytes,
      sha256: stored.sha256,
      entryCount: this.entryCount,
      tombstoneCount: this.tombstoneCount,
      uncompressedBytes: this.uncompressedBytes,
    };
  }

  /**
   * Ends the upload: an unfinished one is aborted by putStream (AbortMultipartUpload); a completed
   * one is deleted with the backup's other objects by the target's `removeWritten`.
   */
  async discard(): Promise<void> {
    if (!this.gzip.destroyed) this.gzip.destroy();
    await this.upload.catch(() => undefined);
  }
}

/** A backup's key prefix in the bucket: `<tenant>/<backupId>/`. */
export class S3Parts implements PartTarget {
  private readonly prefix: string;

  constructor(
    private readonly objects: S3ObjectStore,
    /** The store as messages name it: `s3://bucket/prefix`. */
    private readonly where: string,
    private readonly cleanup: RetriedCleanup,
    private readonly tenant: string,
    private readonly backupId: string,
    private readonly options: ArtifactWriterOptions & UploadSizes = {},
  ) {
    this.prefix = backupPrefix(tenant, backupId);
  }

  openPart(artifactId: string): Promise<ArtifactPart> {
    const key = artifactKey(this.tenant, this.backupId, artifactId);
    return Promise.resolve(new S3Part(artifactId, this.objects, key, this.options));
  }

  /**
   * Deletes the finished parts and aborts any upload still open under the backup's prefix (one
   * whose abort was lost because the server had gone away). While the server does not answer,
   * the cleanup is retried in the background, so once it is back nothing of this capture stays.
   */
  async removeWritten(finished: readonly WrittenArtifact[]): Promise<void> {
    const keys = finished.map((a) => artifactKey(this.tenant, this.backupId, a.artifactId));
    await this.cleanup.run(async () => {
      if (keys.length > 0) await this.objects.deleteMany(keys);
      await abortUploadsBelow(this.objects, this.prefix);
    });
  }

  mapError(error: unknown): unknown {
    return artifactStoreFailure(this.where, error);
  }
}

/** Aborts every incomplete multipart upload below `prefix`, whatever its age. */
export async function abortUploadsBelow(objects: S3ObjectStore, prefix: string): Promise<number> {
  let aborted = 0;
  for await (const upload of objects.listIncompleteUploads(prefix)) {
    await objects.client.send(
      new AbortMultipartUploadCommand({
        Bucket: objects.bucket,
        Key: upload.objectKey,
        UploadId: upload.uploadId,
      }),
    );
    aborted += 1;
  }
  return aborted;
}
