import { createHash } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { ArtifactLocation } from '../../../../config/artifact-location.js';
import { StoreError, invalidArgument } from '../../../errors.js';
import { clientSecrets, s3ErrorFacts, s3Failure } from './s3-errors.js';
import {
  abortIncompleteUploads,
  listIncompleteUploads,
  type AbortedUploads,
  type IncompleteUpload,
} from './s3-incomplete-uploads.js';
import {
  SHA256_METADATA,
  putStream,
  type StoredObject,
  type StreamingPutOptions,
} from './s3-streaming-put.js';

type S3Location = Extract<ArtifactLocation, { kind: 's3' }>;

export interface ObjectInfo {
  /** The key below the store's prefix. */
  key: string;
  bytes: number;
  lastModified: Date | undefined;
  /** `x-amz-meta-sha256`, when the object has it. */
  sha256: string | undefined;
}

/** A key a DeleteObjects request did not delete, with the server's reason. */
export interface RefusedDelete {
  /** The key below the store's prefix. */
  key: string;
  code: string;
  message: string;
}

export interface ReadOptions {
  /** Bytes `start` to `end` inclusive (`end` absent: to the end of the object). */
  range?: { start: number; end?: number };
  /** The size and sha256 recorded at capture: a whole read fails with DataLoss if they differ. */
  expect?: { bytes: number; sha256: string };
  signal?: AbortSignal;
}

export interface ObjectRead {
  body: Readable;
  /** Bytes this read returns. */
  bytes: number;
  /** Size of the whole object. */
  objectBytes: number;
  sha256: string | undefined;
}

/**
 * Objects below `s3://bucket/prefix`, addressed by keys relative to the prefix
 * (`tenant/backup/part-00001.ndjson.gz`). Keys are paths: no empty, `.` or `..` segments, which
 * S3-compatible servers that store files refuse anyway.
 */
export class S3ObjectStore {
  constructor(
    readonly client: S3Client,
    readonly location: S3Location,
  ) {}

  get bucket(): string {
    return this.location.bucket;
  }

  /** The full key of a relative one. */
  objectKey(key: string): string {
    const segments = key.split('/');
    if (key === '' || segments.some((s) => s === '' || s === '.' || s === '..'))
      throw invalidArgument('key', `${JSON.stringify(key)} is not an object key below the prefix`);
    return this.location.prefix === '' ? key : `${this.location.prefix}/${key}`;
  }

  /** The relative key of a full one (listings return full keys). */
  relativeKey(fullKey: string): string {
    const prefix = this.location.prefix === '' ? '' : `${this.location.prefix}/`;
    return fullKey.startsWith(prefix) ? fullKey.slice(prefix.length) : fullKey;
  }

  describe(key: string): string {
    return `s3://${this.bucket}/${this.objectKey(key)}`;
  }

  /** Streams `source` to `key`; see putStream for memory, checksums and cleanup. */
  async put(
    key: string,
    source: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: StreamingPutOptions = {},
  ): Promise<StoredObject> {
    return putStream(this.client, this.bucket, this.objectKey(key), source, options);
  }

  /**
   * Reads an object (or a range of it) as a stream. With `expect`, a size that differs fails
   * before the first byte, a sha256 metadata that differs too, and the bytes are hashed as they
   * pass: the stream ends in DataLoss instead of ending cleanly when the hash differs.
   */
  async get(key: string, options: ReadOptions = {}): Promise<ObjectRead> {
    const { range, expect, signal } = options;
    if (range && expect) throw invalidArgument('expect', 'a ranged read cannot be verified whole');
    if (range && (range.start < 0 || (range.end !== undefined && range.end < range.start)))
      throw invalidArgument('range', `bytes ${range.start}-${range.end ?? ''} is not a range`);
    const fullKey = this.objectKey(key);
    let response;
    try {
      response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: fullKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (error) {
      throw s3Failure(error, `reading ${this.describe(key)}`, await clientSecrets(this.client));
    }
    const body = response.Body as Readable;
    const bytes = response.ContentLength ?? 0;
    const total = /\/(\d+)$/.exec(response.ContentRange ?? '')?.[1];
    const objectBytes = total !== undefined ? Number(total) : bytes;
    const sha256 = response.Metadata?.[SHA256_METADATA];
    if (!expect) return { body, bytes, objectBytes, sha256 };

    const mismatch =
      objectBytes !== expect.bytes
        ? `is ${objectBytes} bytes, not the ${expect.bytes} recorded`
        : sha256 !== undefined && sha256 !== expect.sha256
          ? `has sha256 ${sha256} in its metadata, not the ${expect.sha256} recorded`
          : undefined;
    if (mismatch) {
      body.destroy();
      throw new StoreError('data_loss', `${this.describe(key)} ${mismatch}`);
    }
    const verified = verifying(this.describe(key), expect);
    // Errors travel both ways: a failed read fails the verified stream, destroying it stops the read.
    pipeline(body, verified, () => {});
    return { body: verified, bytes, objectBytes, sha256 };
  }

  /** Size, date and recorded sha256 of an object; undefined when there is none. */
  async head(key: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    try {
      const response = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
        signal ? { abortSignal: signal } : {},
      );
      return {
        key,
        bytes: response.ContentLength ?? 0,
        lastModified: response.LastModified,
        sha256: response.Metadata?.[SHA256_METADATA],
      };
    } catch (error) {
      if (s3ErrorFacts(error).name === 'NotFound') return undefined;
      throw s3Failure(error, `reading ${this.describe(key)}`, await clientSecrets(this.client));
    }
  }

  /** Every object whose relative key starts with `prefix`, a page (≤ 1000) at a time. */
  async *list(
    prefix = '',
    options: { pageSize?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<ObjectInfo> {
    const { pageSize, signal } = options;
    if (prefix.split('/').some((s) => s === '.' || s === '..'))
      throw invalidArgument('prefix', `${JSON.stringify(prefix)} is not a key prefix`);
    const full = this.location.prefix === '' ? prefix : `${this.location.prefix}/${prefix}`;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: full,
            ContinuationToken: token,
            MaxKeys: pageSize,
          }),
          signal ? { abortSignal: signal } : {},
        );
      } catch (error) {
        const where = `s3://${this.bucket}/${full}`;
        throw s3Failure(error, `listing ${where}`, await clientSecrets(this.client));
      }
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield {
          key: this.relativeKey(object.Key),
          bytes: object.Size ?? 0,
          lastModified: object.LastModified,
          sha256: undefined,
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** Deletes an object; deleting one that is not there is not an error (as in S3). */
  async delete(key: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (error) {
      throw s3Failure(error, `deleting ${this.describe(key)}`, await clientSecrets(this.client));
    }
  }

  /** Deletes objects 1000 to a request; throws naming the first key the server refused. */
  async deleteMany(keys: readonly string[], signal?: AbortSignal): Promise<void> {
    const refused = await this.deleteObjects(keys, signal);
    const first = refused[0];
    if (first) {
      throw new StoreError(
        'unavailable',
        `deleting ${refused.length} of ${keys.length} objects in s3://${this.bucket} failed, first ${this.describe(first.key)}: ${first.code} ${first.message}`.trim(),
      );
    }
  }

  /**
   * Deletes objects 1000 to a request (DeleteObjects) and returns the keys the server refused,
   * each with its code: a batch answers per key, and a refused key is not deleted. A key that
   * was not there counts as deleted (as in S3). A request that fails as a whole throws.
   */
  async deleteObjects(keys: readonly string[], signal?: AbortSignal): Promise<RefusedDelete[]> {
    const refused: RefusedDelete[] = [];
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000).map((key) => ({ Key: this.objectKey(key) }));
      let response;
      try {
        response = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch, Quiet: true },
          }),
          signal ? { abortSignal: signal } : {},
        );
      } catch (error) {
        const what = `deleting ${batch.length} objects in s3://${this.bucket}`;
        throw s3Failure(error, what, await clientSecrets(this.client));
      }
      for (const error of response.Errors ?? []) {
        if (error.Code === 'NoSuchKey') continue;
        refused.push({
          key: error.Key === undefined ? '?' : this.relativeKey(error.Key),
          code: error.Code ?? 'Error',
          message: error.Message ?? '',
        });
      }
    }
    return refused;
  }

  /** Multipart uploads begun and neither completed nor aborted, below `prefix`. */
  listIncompleteUploads(prefix = '', signal?: AbortSignal): AsyncGenerator<IncompleteUpload> {
    return listIncompleteUploads(this, prefix, signal);
  }

  /** Aborts the incomplete uploads begun more than `olderThanMs` ago (scrub: a day). */
  abortIncompleteUploads(options: {
    olderThanMs: number;
    now?: number;
    signal?: AbortSignal;
  }): Promise<AbortedUploads> {
    return abortIncompleteUploads(this, options);
  }
}

/** Passes bytes through, hashing them; ends in DataLoss when the size or sha256 differ. */
function verifying(where: string, expect: { bytes: number; sha256: string }): Transform {
  const hash = createHash('sha256');
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      seen += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      const sha256 = hash.digest('hex');
      if (seen !== expect.bytes || sha256 !== expect.sha256) {
        callback(
          new StoreError(
            'data_loss',
            `${where}: read ${seen} bytes with sha256 ${sha256}, recorded ${expect.bytes} bytes with sha256 ${expect.sha256}`,
          ),
        );
      } else callback();
    },
  });
}
