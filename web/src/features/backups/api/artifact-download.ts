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
 * Reads every chunk into a Blob, hashing as it goes, reporting the bytes received so far after
 * each chunk. The hash is a JS SHA-256 (@noble/hashes), not WebCrypto: `crypto.subtle` is missing
 * on a plain-http origin other than localhost, and an incremental hash needs no second pass.
 */
export async function collectChunks(
  chunks: AsyncIterable<Uint8Array>,
  onProgress: (bytesReceived: number) => void,
): Promise<CollectedDownload> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const hash = sha256.create();
  let received = 0;
  for await (const chunk of chunks) {
    // A copy: the stream may reuse its buffer, and a Blob wants an ArrayBuffer-backed view.
    const copy = new Uint8Array(chunk);
    parts.push(copy);
    hash.update(copy);
    received += chunk.byteLength;
    onProgress(received);
  }
  return {
    blob: new Blob(parts, { type: 'application/gzip' }),
    sha256: bytesToHex(hash.digest()),
  };
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
