import { mkdir, open, rm, truncate } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryArtifactStore } from './directory-artifact-store.js';
import type { WrittenArtifact } from './artifact-types.js';
import { codeOf, collect, makeRecords, tempStore } from './test-fixtures.js';

let store: DirectoryArtifactStore;
let dispose: () => Promise<void>;
let artifact: WrittenArtifact;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
  [artifact] = (await store.writeArtifacts('acme', 'b1', makeRecords(4_000))) as [WrittenArtifact];
});
afterEach(() => dispose());

const path = () => store.layout.artifactPath('acme', 'b1', artifact.artifactId);
const readAll = () => collect(store.readArtifactRecords('acme', 'b1', artifact));

/** Flips one bit of the stored file at `offset` (negative: from the end). */
async function flipByte(offset: number): Promise<void> {
  const handle = await open(path(), 'r+');
  try {
    const size = (await handle.stat()).size;
    const at = offset < 0 ? size + offset : offset;
    const one = Buffer.alloc(1);
    await handle.read(one, 0, 1, at);
    one[0] = (one[0] ?? 0) ^ 0x01;
    await handle.write(one, 0, 1, at);
  } finally {
    await handle.close();
  }
}

describe('verifyArtifact', () => {
  it('accepts an intact artifact and reports every stored byte as read', async () => {
    const result = await store.verifyArtifact('acme', 'b1', artifact);
    expect(result).toEqual({ ok: true, bytesRead: artifact.byteSize });
  });

  it('reports checksum_mismatch when one byte of the file is flipped', async () => {
    await flipByte(Math.floor(artifact.byteSize / 2));
    const result = await store.verifyArtifact('acme', 'b1', artifact);
    expect(result).toMatchObject({ ok: false, problem: 'checksum_mismatch' });
    expect(result.bytesRead).toBe(artifact.byteSize);
  });

  it('reports size_mismatch when the file was truncated', async () => {
    await truncate(path(), artifact.byteSize - 10);
    expect(await store.verifyArtifact('acme', 'b1', artifact)).toMatchObject({
      ok: false,
      problem: 'size_mismatch',
    });
  });

  it('reports missing when the file is gone', async () => {
    await rm(path());
    expect(await store.verifyArtifact('acme', 'b1', artifact)).toEqual({
      ok: false,
      problem: 'missing',
      bytesRead: 0,
    });
  });

  it('reports unreadable when the artifact path is not a regular file', async () => {
    await rm(path());
    await mkdir(path());
    expect(await store.verifyArtifact('acme', 'b1', artifact)).toMatchObject({
      ok: false,
      problem: 'unreadable',
    });
  });

  it('when cancelled, throws cancelled instead of reporting a problem', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = store.verifyArtifact('acme', 'b1', artifact, { signal: controller.signal });
    expect(await codeOf(run)).toBe('cancelled');
  });
});

describe('readArtifactRecords', () => {
  it('yields every record in order when the artifact is intact', async () => {
    expect(await readAll()).toEqual(makeRecords(4_000));
  });

  it('throws data_loss when one byte of the compressed data is flipped', async () => {
    await flipByte(Math.floor(artifact.byteSize / 2));
    expect(await codeOf(readAll())).toBe('data_loss');
  });

  it('throws data_loss when only the gzip trailer is damaged', async () => {
    await flipByte(-2);
    expect(await codeOf(readAll())).toBe('data_loss');
  });

  it('throws data_loss when the file was truncated', async () => {
    await truncate(path(), artifact.byteSize - 100);
    expect(await codeOf(readAll())).toBe('data_loss');
  });

  it('throws data_loss when the file of a catalogued artifact is missing', async () => {
    await rm(path());
    expect(await codeOf(readAll())).toBe('data_loss');
  });

  it('throws data_loss when the hash is right but the manifest counts other entries', async () => {
    const wrong = { ...artifact, entryCount: artifact.entryCount + 1 };
    expect(await codeOf(collect(store.readArtifactRecords('acme', 'b1', wrong)))).toBe('data_loss');
  });

  it('throws data_loss when the manifest checksum is not the file checksum', async () => {
    const wrong = { ...artifact, sha256: '0'.repeat(64) };
    expect(await codeOf(collect(store.readArtifactRecords('acme', 'b1', wrong)))).toBe('data_loss');
  });

  it('hands out records in batches, one array per decompressed chunk', async () => {
    const batches = await collect(store.readArtifactBatches('acme', 'b1', artifact));
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toEqual(makeRecords(4_000));
  });

  it('when aborted mid-read, throws cancelled', async () => {
    const controller = new AbortController();
    const read = async () => {
      const records = store.readArtifactRecords('acme', 'b1', artifact, {
        signal: controller.signal,
      });
      for await (const _record of records) controller.abort();
    };
    expect(await codeOf(read())).toBe('cancelled');
  });
});
