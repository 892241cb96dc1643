import { AbortMultipartUploadCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { clientSecrets, s3ErrorFacts, s3Failure } from './s3-errors.js';
import type { S3ObjectStore } from './s3-object-store.js';

export interface IncompleteUpload {
  /** The key below the store's prefix. */
  key: string;
  /** The full key (prefix included), as the server lists it. */
  objectKey: string;
  uploadId: string;
  initiated: Date | undefined;
}

export interface AbortedUploads {
  aborted: IncompleteUpload[];
  /** Uploads younger than the age given: possibly a capture still running. */
  kept: number;
}

/**
 * Multipart uploads begun and neither completed nor aborted (a capture that died between parts):
 * their parts are stored, and billed, until aborted.
 */
export async function* listIncompleteUploads(
  store: S3ObjectStore,
  prefix: string,
  signal?: AbortSignal,
): AsyncGenerator<IncompleteUpload> {
  const base = store.location.prefix === '' ? '' : `${store.location.prefix}/`;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    let page;
    try {
      page = await store.client.send(
        new ListMultipartUploadsCommand({
          Bucket: store.bucket,
          Prefix: `${base}${prefix}`,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (error) {
      // rclone serve s3 answers a listing below a prefix with no uploads NoSuchUpload (404).
      if (s3ErrorFacts(error).name === 'NoSuchUpload') return;
      const where = `s3://${store.bucket}/${base}${prefix}`;
      throw s3Failure(
        error,
        `listing incomplete uploads in ${where}`,
        await clientSecrets(store.client),
      );
    }
    for (const upload of page.Uploads ?? []) {
      if (upload.Key === undefined || upload.UploadId === undefined) continue;
      yield {
        key: store.relativeKey(upload.Key),
        objectKey: upload.Key,
        uploadId: upload.UploadId,
        initiated: upload.Initiated,
      };
    }
    if (!page.IsTruncated) return;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
    if (keyMarker === undefined && uploadIdMarker === undefined) return;
  }
}

/**
 * Aborts every incomplete upload below the store's prefix begun more than `olderThanMs` before
 * `now`; an upload without a start date counts as old. Younger ones may belong to a running
 * capture and are kept.
 */
export async function abortIncompleteUploads(
  store: S3ObjectStore,
  options: { olderThanMs: number; now?: number; signal?: AbortSignal },
): Promise<AbortedUploads> {
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  const old: IncompleteUpload[] = [];
  let kept = 0;
  for await (const upload of listIncompleteUploads(store, '', options.signal)) {
    if (upload.initiated !== undefined && upload.initiated.getTime() > cutoff) kept++;
    else old.push(upload);
  }
  for (const upload of old) {
    try {
      await store.client.send(
        new AbortMultipartUploadCommand({
          Bucket: store.bucket,
          Key: upload.objectKey,
          UploadId: upload.uploadId,
        }),
        options.signal ? { abortSignal: options.signal } : {},
      );
    } catch (error) {
      const what = `aborting the incomplete upload of s3://${store.bucket}/${upload.objectKey}`;
      throw s3Failure(error, what, await clientSecrets(store.client));
    }
  }
  return { aborted: old, kept };
}
