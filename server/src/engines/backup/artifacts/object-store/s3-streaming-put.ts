import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { StoreError } from '../../../errors.js';
import { clientSecrets, s3Failure } from './s3-errors.js';

/** S3's smallest part (all but the last); also the default, to hold the least memory. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;
/** CopyObject's limit: a larger object keeps its data but gets no sha256 metadata. */
const MAX_COPY_BYTES = 5 * 1024 * 1024 * 1024;
/** The user-metadata name (`x-amz-meta-sha256`) holding the hex sha256 of the object's bytes. */
export const SHA256_METADATA = 'sha256';

export interface StreamingPutOptions {
  /** Bytes per part, 5 MiB (the S3 minimum, default) to 5 GiB. At most 10 000 parts. */
  partSize?: number;
  /** Parts uploaded at once (default 2). Memory held is about (queueSize + 1) × partSize. */
  queueSize?: number;
  signal?: AbortSignal;
  contentType?: string;
  /** After each part (or the single PUT): the bytes the server has acknowledged so far. */
  onUploaded?: (bytes: number) => void;
}

export interface StoredObject {
  /** The full object key (prefix included). */
  key: string;
  bytes: number;
  /** Hex sha256 of the bytes, computed while they streamed. */
  sha256: string;
  /** Whether the sha256 was recorded in the object's metadata (not above 5 GiB). */
  sha256InMetadata: boolean;
}

/**
 * Streams `source` into `bucket/key` without holding the whole object: lib-storage's Upload cuts
 * it into parts (one PUT when it fits one part) while the bytes are hashed and counted on the way.
 * Each part carries its SHA-256 checksum header, which AWS and MinIO verify on arrival.
 *
 * The sha256 of the whole object is known only at the end, after the upload began, so it is
 * recorded by an in-place CopyObject (REPLACE metadata, `x-amz-meta-sha256`, asking for a SHA-256
 * checksum; S3 stores that as the object's full-object checksum, which `head-object
 * --checksum-mode ENABLED` shows). Servers that keep no checksums (rclone) still keep the
 * metadata. The copy is server-side: no byte crosses the network again.
 *
 * On failure or abort nothing is left behind: the source is destroyed, the multipart upload
 * aborted (and any upload still listed for this exact key, in case the abort was lost), and an
 * object whose metadata could not be recorded deleted.
 */
export async function putStream(
  client: S3Client,
  bucket: string,
  key: string,
  source: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: StreamingPutOptions = {},
): Promise<StoredObject> {
  const partSize = options.partSize ?? MIN_PART_BYTES;
  if (!Number.isSafeInteger(partSize) || partSize < MIN_PART_BYTES || partSize > MAX_PART_BYTES)
    throw new StoreError(
      'invalid_argument',
      `partSize: must be from 5 MiB to 5 GiB, got ${partSize}`,
    );
  const queueSize = options.queueSize ?? 2;
  const signal = options.signal;
  signal?.throwIfAborted();

  const hash = createHash('sha256');
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const input = source instanceof Readable ? source : Readable.from(source);
  const feeding = pipeline(input, counted, signal ? { signal } : {});
  const upload = new Upload({
    client,
    params: {
      Bucket: bucket,
      Key: key,
      Body: counted,
      ChecksumAlgorithm: 'SHA256',
      ...(options.contentType ? { ContentType: options.contentType } : {}),
    },
    partSize,
    queueSize,
    leavePartsOnError: false,
  });
  const onUploaded = options.onUploaded;
  if (onUploaded)
    upload.on('httpUploadProgress', (p) => p.loaded !== undefined && onUploaded(p.loaded));
  const uploading = upload.done();
  try {
    await Promise.all([feeding, uploading]);
  } catch (error) {
    // Ends the part feeder, so done() settles only after its AbortMultipartUpload was sent.
    counted.destroy();
    input.destroy();
    const settled = await Promise.allSettled([uploading, feeding]);
    await abortUploadsOfKey(client, bucket, key);
    if (signal?.aborted) throw new StoreError('cancelled', `upload of ${key} cancelled`);
    throw s3Failure(
      firstCause(error, settled),
      `uploading s3://${bucket}/${key}`,
      await clientSecrets(client),
    );
  }

  const sha256 = hash.digest('hex');
  if (bytes > MAX_COPY_BYTES) return { key, bytes, sha256, sha256InMetadata: false };
  try {
    await client.send(
      new CopyObjectCommand({
        Bucket: bucket,
        Key: key,
        CopySource: `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
        MetadataDirective: 'REPLACE',
        Metadata: { [SHA256_METADATA]: sha256 },
        ChecksumAlgorithm: 'SHA256',
        ...(options.contentType ? { ContentType: options.contentType } : {}),
      }),
      signal ? { abortSignal: signal } : {},
    );
  } catch (error) {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => {});
    if (signal?.aborted) throw new StoreError('cancelled', `upload of ${key} cancelled`);
    throw s3Failure(
      error,
      `recording the sha256 of s3://${bucket}/${key}`,
      await clientSecrets(client),
    );
  }
  return { key, bytes, sha256, sha256InMetadata: true };
}

/**
 * The failure to report when both sides of an upload ended: one side's failure tears the other
 * down, and that side then fails with an abort or a premature close of its own. With two parts in
 * flight, S3 cut off mid-upload rejected the feeder with "The operation was aborted" before the
 * upload's ECONNREFUSED, and the capture was reported as an internal error, not Unavailable.
 * The upload's own failure first (S3's answer), then the feeder's (the source's), each only when
 * it is not such a teardown; otherwise whichever came first.
 */
function firstCause(first: unknown, settled: PromiseSettledResult<unknown>[]): unknown {
  for (const side of settled) {
    if (side.status === 'rejected' && !isTeardown(side.reason)) return side.reason;
  }
  return first;
}

function isTeardown(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === 'AbortError' || code === 'ABORT_ERR' || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * Aborts every incomplete multipart upload of exactly `key`: lib-storage aborts its own upload,
 * but that request can fail (or a part can still be arriving); keys are unique per artifact, so
 * nothing else can own one. Best effort: scrub finds what a dead server leaves.
 */
async function abortUploadsOfKey(client: S3Client, bucket: string, key: string): Promise<void> {
  try {
    const listed = await client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }),
    );
    for (const upload of listed.Uploads ?? []) {
      if (upload.Key !== key || upload.UploadId === undefined) continue;
      await client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: upload.UploadId }),
      );
    }
  } catch {
    // The server is unreachable or refuses: the upload expires there or scrub removes it.
  }
}
