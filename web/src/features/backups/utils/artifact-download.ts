/**
 * An artifact export streamed to a file. The bytes come through the ExportArtifact stream (with
 * the session's headers), never through a URL that could carry a credential. The tab holds at
 * most one window of them at a time: each full window goes to a sink (a file the admin picked,
 * or a Blob part the browser keeps outside the tab; download-sinks.ts) while a SHA-256 is fed
 * chunk by chunk (incremental-sha256.ts), and the sink is told to keep the file only once size and digest are the
 * manifest's.
 */

import { incrementalSha256, type Sha256Engine } from './incremental-sha256';

/**
 * Bytes gathered before one write to the sink: a write to a picked file is a round trip to the
 * browser process, so 1 MiB keeps those few (1 024 for a GiB) while the tab's share stays small.
 */
export const WINDOW_BYTES = 1024 * 1024;

/**
 * Where the windows go. The window is the caller's again once `write` resolves (it is refilled
 * for the next one), so a sink copies what it keeps; a file's writable copies on write.
 */
export interface DownloadSink {
  write(bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** Every byte matched the manifest: the file is kept (for a Blob, handed to the browser). */
  commit(): Promise<void>;
  /** A mismatch, a failure or a cancel: the sink drops what it can. */
  discard(reason: unknown): Promise<void>;
  /** What a mismatch leaves the admin to do, ending the error's sentence. */
  readonly afterMismatch: string;
  /** The file a failed export leaves on disk, for the admin to delete (none for a Blob). */
  readonly leftOnDisk?: string;
}

/** What the manifest says an artifact holds. */
export interface ExpectedArtifact {
  artifactId: string;
  byteSize: bigint;
  sha256: string;
}

/** A finished download: its size and SHA-256 (lower-case hex). */
export interface StreamedDownload {
  size: number;
  sha256: string;
}

/** A download that is not the artifact the manifest describes. */
export class DownloadMismatchError extends Error {
  override readonly name = 'DownloadMismatchError';
}

/**
 * Streams `chunks` into `sink` in windows of `windowBytes`, reporting the bytes received after
 * each chunk. The sink is committed only when the download is the manifest's artifact; otherwise
 * (and on any failure, the cancel of the call included) it is discarded and the error thrown.
 */
export async function streamToSink(
  chunks: AsyncIterable<Uint8Array>,
  sink: DownloadSink,
  expected: ExpectedArtifact,
  onProgress: (bytesReceived: number) => void,
  windowBytes = WINDOW_BYTES,
  engine: Sha256Engine = 'wasm',
): Promise<StreamedDownload> {
  const hash = await incrementalSha256(engine);
  const pending = new Uint8Array(windowBytes);
  let filled = 0;
  let size = 0;
  let download: StreamedDownload;
  try {
    for await (const chunk of chunks) {
      // Hashed and copied before the next chunk is asked for: the stream may reuse its buffer.
      hash.update(chunk);
      size += chunk.byteLength;
      if (BigInt(size) > expected.byteSize) {
        throw new DownloadMismatchError(
          `the server sent more than the ${expected.byteSize} bytes the manifest says ${expected.artifactId} holds; ${sink.afterMismatch}`,
        );
      }
      for (let at = 0; at < chunk.byteLength;) {
        const taken = Math.min(windowBytes - filled, chunk.byteLength - at);
        pending.set(chunk.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === windowBytes) {
          // One window for the whole export, refilled once the sink has taken its bytes: the
          // export itself leaves nothing per MiB for the collector.
          await sink.write(pending);
          filled = 0;
        }
      }
      onProgress(size);
    }
    if (filled > 0) await sink.write(pending.subarray(0, filled));
    download = { size, sha256: hash.hex() };
    verifyDownload(download, expected, sink.afterMismatch);
  } catch (error) {
    // The error that stopped the download is the one to report, not a failure to clean up.
    await sink.discard(error).catch(() => undefined);
    throw error;
  }
  await sink.commit();
  return download;
}

/**
 * Checks a download against the manifest: an empty download of a non-empty artifact, a size or
 * a SHA-256 that differs, each throw DownloadMismatchError ending with `afterMismatch`.
 */
export function verifyDownload(
  download: StreamedDownload,
  expected: ExpectedArtifact,
  afterMismatch: string,
): void {
  const size = BigInt(download.size);
  if (size === 0n && expected.byteSize > 0n) {
    throw new DownloadMismatchError(
      `the server sent no bytes for ${expected.artifactId} (the manifest says ${expected.byteSize}); ${afterMismatch}`,
    );
  }
  if (size !== expected.byteSize) {
    throw new DownloadMismatchError(
      `received ${size} bytes of ${expected.artifactId}, the manifest says ${expected.byteSize}; ${afterMismatch}`,
    );
  }
  if (download.sha256 !== expected.sha256.toLowerCase()) {
    throw new DownloadMismatchError(
      `SHA-256 of ${expected.artifactId} is ${download.sha256}, the manifest says ${expected.sha256}; ${afterMismatch}`,
    );
  }
}

/** The file name of an artifact download: `<backup>-<artifact>.ndjson.gz`. */
export function artifactFileName(backupId: string, artifactId: string): string {
  return `${backupId}-${artifactId}.ndjson.gz`;
}
