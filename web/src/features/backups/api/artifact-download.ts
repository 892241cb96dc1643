/**
 * An artifact export as a browser download. The bytes come through the ExportArtifact stream
 * (with the session's headers), never through a URL that could carry a credential; the only URL
 * is a short-lived object URL of the finished Blob, revoked right after the click.
 */

/** Reads every chunk into a Blob, reporting the bytes received so far after each chunk. */
export async function collectChunks(
  chunks: AsyncIterable<Uint8Array>,
  onProgress: (bytesReceived: number) => void,
): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for await (const chunk of chunks) {
    // A copy: the stream may reuse its buffer, and a Blob wants an ArrayBuffer-backed view.
    parts.push(new Uint8Array(chunk));
    received += chunk.byteLength;
    onProgress(received);
  }
  return new Blob(parts, { type: 'application/gzip' });
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
