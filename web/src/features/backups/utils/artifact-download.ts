/**
 * An artifact export as a browser download. The bytes come through the ExportArtifact stream
 * (with the session's headers), never through a URL that could carry a credential; the only URL
 * is a short-lived object URL of the finished Blob, revoked right after the click.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** A finished download: its bytes and their SHA-256 (lower-case hex). */
export interface CollectedDownload {
  blob: Blob;
  sha256: string;
}

/**
 * How the SHA-256 is computed. 'native': WebCrypto over the whole download once it is in —
 * native code, many times the JS hash (docs/performance.md, row 20), but `crypto.subtle` exists
 * only in a secure context (https, or http on localhost). 'incremental': a JS SHA-256
 * (@noble/hashes) fed chunk by chunk as they arrive, for a console served over plain http from
 * another host.
 */
export type Hashing = 'native' | 'incremental';

/** 'native' wherever the page may use WebCrypto. */
export function defaultHashing(): Hashing {
  return typeof globalThis.crypto?.subtle?.digest === 'function' ? 'native' : 'incremental';
}

/**
 * The download's bytes in one buffer, sized from the manifest up front so each chunk is copied
 * once (the stream may reuse its buffers, and a Blob wants ArrayBuffer-backed bytes); it grows
 * only if the server sends more than the manifest says, which verifyDownload then refuses.
 */
class DownloadBuffer {
  private bytes: Uint8Array<ArrayBuffer>;
  length = 0;

  constructor(sizeHint: number) {
    this.bytes = new Uint8Array(Number.isSafeInteger(sizeHint) && sizeHint > 0 ? sizeHint : 0);
  }

  /** Appends a chunk; returns the copy (stable: later growth copies, never overwrites). */
  append(chunk: Uint8Array): Uint8Array<ArrayBuffer> {
    const end = this.length + chunk.byteLength;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2, 64 * 1024));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.length);
    const copy = this.bytes.subarray(this.length, end);
    this.length = end;
    return copy;
  }

  get filled(): Uint8Array<ArrayBuffer> {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * Reads every chunk into one buffer, reporting the bytes received so far after each chunk, and
 * returns them as a Blob with their SHA-256. `sizeHint` is the manifest's size (the buffer is
 * allocated once at that size).
 */
export async function collectChunks(
  chunks: AsyncIterable<Uint8Array>,
  onProgress: (bytesReceived: number) => void,
  sizeHint = 0,
  hashing: Hashing = defaultHashing(),
): Promise<CollectedDownload> {
  const buffer = new DownloadBuffer(sizeHint);
  const incremental = hashing === 'incremental' ? sha256.create() : undefined;
  for await (const chunk of chunks) {
    const copy = buffer.append(chunk);
    incremental?.update(copy);
    onProgress(buffer.length);
  }
  const bytes = buffer.filled;
  const digest = incremental
    ? incremental.digest()
    : new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return { blob: new Blob([bytes], { type: 'application/gzip' }), sha256: bytesToHex(digest) };
}

/** What the manifest says an artifact holds. */
export interface ExpectedArtifact {
  artifactId: string;
  byteSize: bigint;
  sha256: string;
}

/** A download that is not the artifact the manifest describes; it is never saved. */
export class DownloadMismatchError extends Error {
  override readonly name = 'DownloadMismatchError';
}

/**
 * Checks a download against the manifest before it is saved: an empty download of a non-empty
 * artifact, a size or a SHA-256 that differs, each throw DownloadMismatchError.
 */
export function verifyDownload(download: CollectedDownload, expected: ExpectedArtifact): void {
  const size = BigInt(download.blob.size);
  if (size === 0n && expected.byteSize > 0n) {
    throw new DownloadMismatchError(
      `the server sent no bytes for ${expected.artifactId} (the manifest says ${expected.byteSize}); nothing was saved`,
    );
  }
  if (size !== expected.byteSize) {
    throw new DownloadMismatchError(
      `received ${size} bytes of ${expected.artifactId}, the manifest says ${expected.byteSize}; nothing was saved`,
    );
  }
  if (download.sha256 !== expected.sha256.toLowerCase()) {
    throw new DownloadMismatchError(
      `SHA-256 of ${expected.artifactId} is ${download.sha256}, the manifest says ${expected.sha256}; nothing was saved`,
    );
  }
}

/** The file name of an artifact download: `<backup>-<artifact>.ndjson.gz`. */
export function artifactFileName(backupId: string, artifactId: string): string {
  return `${backupId}-${artifactId}.ndjson.gz`;
}

/** Hands the Blob to the browser as a download through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the Blob to the download manager; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
