/**
 * Where an export's windows go (artifact-download.ts). Where the browser has the File System
 * Access API (Chromium), a file the admin picks, written as the bytes arrive. Elsewhere, Blob
 * parts: each window becomes a Blob, which the browser keeps outside the page (Chromium's blob
 * storage pages them to disk past its memory limit), and the finished file is one Blob of those
 * parts handed over through a short-lived object URL. web/README.md says what each browser gets.
 */

import type { DownloadSink } from './artifact-download';

/** `window.showSaveFilePicker`, which TypeScript's DOM library does not declare yet. */
type SaveFilePicker = (options: { suggestedName: string }) => Promise<FileSystemFileHandle>;

function saveFilePicker(): SaveFilePicker | undefined {
  const picker = (window as Window & { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  return typeof picker === 'function' ? picker.bind(window) : undefined;
}

/** Whether this browser can write an export straight to a file the admin picks. */
export function canPickSaveFile(): boolean {
  return saveFilePicker() !== undefined;
}

/**
 * Asks where to save (call it from the click: the picker needs the user's gesture) and opens
 * the file for writing; undefined when the admin closes the dialog.
 */
export async function pickFileSink(fileName: string): Promise<DownloadSink | undefined> {
  const picker = saveFilePicker();
  if (!picker) throw new Error('this browser cannot save to a chosen file');
  let handle: FileSystemFileHandle;
  try {
    handle = await picker({ suggestedName: fileName });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined;
    throw error;
  }
  return fileSink(handle);
}

/**
 * A sink writing to `handle`. Chromium writes to a temporary copy and moves it over the file on
 * close, so a discarded export leaves at most the empty file the picker made; the message still
 * tells the admin to delete it, as another browser may have written in place.
 */
export async function fileSink(handle: FileSystemFileHandle): Promise<DownloadSink> {
  return streamSink(await handle.createWritable(), handle.name);
}

/**
 * A sink writing to a stream (a picked file's writable), each write awaited so the page never
 * queues more than one window; a mismatch tells the admin to delete `fileName`.
 */
export function streamSink(
  stream: WritableStream<Uint8Array<ArrayBuffer>>,
  fileName: string,
): DownloadSink {
  const writer = stream.getWriter();
  return {
    afterMismatch: `delete ${fileName}, it is not this artifact`,
    leftOnDisk: fileName,
    write: (bytes) => writer.write(bytes),
    commit: () => writer.close(),
    discard: (reason) => writer.abort(reason),
  };
}

/** A sink gathering Blob parts, saved as one download under `fileName` on commit. */
export function blobPartsSink(fileName: string): DownloadSink {
  let parts: Blob[] = [];
  return {
    afterMismatch: 'nothing was saved',
    // The Blob copies the window out of the page (the window is refilled for the next one).
    write: (bytes) => {
      parts.push(new Blob([bytes]));
      return Promise.resolve();
    },
    commit: () => {
      saveBlob(new Blob(parts, { type: 'application/gzip' }), fileName);
      parts = [];
      return Promise.resolve();
    },
    discard: () => {
      parts = [];
      return Promise.resolve();
    },
  };
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
