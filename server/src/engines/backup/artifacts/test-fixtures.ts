// Shared by this folder's tests only: temp roots, record generators, and small stream helpers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryArtifactStore } from './directory-artifact-store.js';
import type { ArtifactRecord } from './artifact-types.js';

/** A store over a fresh temp directory, and a function that removes it. */
export async function tempStore(): Promise<{
  store: DirectoryArtifactStore;
  dispose: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'artifacts-test-'));
  return {
    store: new DirectoryArtifactStore(join(dir, 'artifacts')),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Deterministic records: every 7th a tombstone, unicode keys, some large values. */
export function makeRecords(count: number, largeEvery = 0): ArtifactRecord[] {
  const records: ArtifactRecord[] = [];
  for (let i = 0; i < count; i++) {
    const key = `k/${String(i).padStart(6, '0')}/ключ-鍵-🔑-"quote"\\`;
    let valueJson: string | null = JSON.stringify({ i, text: `välue ${i}\nline two`, ok: true });
    if (i % 7 === 3) valueJson = null;
    else if (largeEvery > 0 && i % largeEvery === 0) {
      valueJson = JSON.stringify({ i, blob: 'x'.repeat(300_000) + '✓' });
    }
    records.push({ key, valueJson, sequence: i + 1, schemaVersion: 1 + (i % 3) });
  }
  return records;
}

/** Collects an async iterable into an array. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** Yields `records` in batches of `size`, like capture paging through the database. */
export async function* inBatches(
  records: readonly ArtifactRecord[],
  size: number,
): AsyncGenerator<ArtifactRecord[]> {
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
}

/** The StoreError code a promise rejects with (or 'resolved'). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}
