// Where the console's Export saves, under test. Headless Chromium has window.showSaveFilePicker
// but answers every call as if the user had closed the dialog, so a test picks one of the
// browser's two real paths: no picker (the Blob-parts fallback every browser without the API
// gets, seen by Playwright as a download), or a picker answered with a real file of the page's
// origin private file system (OPFS), which the console then writes through the real
// FileSystemWritableFileStream.
import type { Page } from '@playwright/test';

/** The console sees a browser without the File System Access API (Firefox, Safari). */
export async function withoutSaveFilePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'showSaveFilePicker');
    Reflect.deleteProperty(Window.prototype, 'showSaveFilePicker');
  });
}

type GatedWindow = Window & { e2eReleaseWrites?: () => void };

/**
 * The picker answers with a new OPFS file of the suggested name. With `holdWrites`, the
 * writable's first write waits until `releaseWrites` (a test that cancels mid-export).
 */
export async function pickerIntoOpfs(page: Page, options: { holdWrites?: boolean } = {}) {
  await page.addInitScript((holdWrites: boolean) => {
    const gate = new Promise<void>((release) => {
      (window as GatedWindow).e2eReleaseWrites = release;
    });
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      value: async ({ suggestedName }: { suggestedName: string }) => {
        const root = await navigator.storage.getDirectory();
        const handle = await root.getFileHandle(suggestedName, { create: true });
        if (!holdWrites) return handle;
        // The console uses only these two of the handle.
        return {
          name: handle.name,
          // The real file's writable behind a stream whose writes wait for the gate first.
          createWritable: async () => {
            const file = (await handle.createWritable()).getWriter();
            return new WritableStream<Uint8Array>({
              write: async (chunk) => {
                await gate;
                await file.write(chunk);
              },
              close: () => file.close(),
              abort: (reason) => file.abort(reason),
            });
          },
        };
      },
    });
  }, options.holdWrites ?? false);
}

/** Lets the held writes of pickerIntoOpfs({ holdWrites: true }) go on. */
export async function releaseWrites(page: Page): Promise<void> {
  await page.evaluate(() => (window as GatedWindow).e2eReleaseWrites?.());
}

/** The bytes of an OPFS file (null when there is none), read back in the page. */
export async function opfsFile(page: Page, name: string): Promise<Buffer | null> {
  const base64 = await page.evaluate(async (fileName) => {
    const root = await navigator.storage.getDirectory();
    let file: File;
    try {
      file = await (await root.getFileHandle(fileName)).getFile();
    } catch {
      return null;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    return btoa(binary);
  }, name);
  return base64 === null ? null : Buffer.from(base64, 'base64');
}
