import { existsSync } from 'node:fs';
import { open, readFile, readdir, readlink, rm, truncate } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_EXPORT_CHUNK_BYTES,
  VERIFIED_TAIL_BYTES,
  releaseBlocks,
  sharedBlocks,
} from './artifact-export.js';
import type { DirectoryArtifactStore } from './directory-artifact-store.js';
import type { WrittenArtifact } from './artifact-types.js';
import { codeOf, makeRecords, tempStore } from './test-fixtures.js';

let store: DirectoryArtifactStore;
let dispose: () => Promise<void>;
let artifact: WrittenArtifact;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
  // Level 0 keeps the file large without many records: several default-sized chunks, and more
  // than three 1 MiB read blocks (the export reads one block ahead of the one it sends).
  const written = await store.writeArtifacts('acme', 'b1', makeRecords(3_000, 250), {
    gzipLevel: 0,
  });
  artifact = written[0] as WrittenArtifact;
});
afterEach(() => dispose());

const path = () => store.layout.artifactPath('acme', 'b1', artifact.artifactId);

/**
 * Pulls every chunk, recording what was yielded before any error. A chunk is a view of a read
 * block the export reuses two blocks later: kept, it is copied (the server writes it out first).
 */
async function drain(chunkSize?: number): Promise<{ chunks: Uint8Array[]; code: string }> {
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of store.exportArtifact('acme', 'b1', artifact, { chunkSize })) {
      chunks.push(Buffer.from(chunk));
    }
    return { chunks, code: 'ok' };
  } catch (error) {
    return { chunks, code: (error as { code?: string }).code ?? String(error) };
  }
}

async function writeByteAt(at: number, value: number): Promise<void> {
  const handle = await open(path(), 'r+');
  await handle.write(Buffer.from([value]), 0, 1, at);
  await handle.close();
}

describe('exportArtifact', () => {
  it('yields the stored file byte for byte, every chunk at most chunkSize', async () => {
    const { chunks, code } = await drain(10_000);
    expect(code).toBe('ok');
    expect(chunks.every((c) => c.length <= 10_000 && c.length > 0)).toBe(true);
    expect(Buffer.concat(chunks).equals(await readFile(path()))).toBe(true);
  });

  it('uses 1 MiB chunks by default (one a read block) after a 256 KiB first one, the last block split before its tail', async () => {
    expect(artifact.byteSize).toBeGreaterThan(3 * DEFAULT_EXPORT_CHUNK_BYTES);
    const { chunks } = await drain();
    const expected = [256 * 1024];
    let left = artifact.byteSize - expected[0]!;
    for (; left > DEFAULT_EXPORT_CHUNK_BYTES; left -= DEFAULT_EXPORT_CHUNK_BYTES) {
      expected.push(DEFAULT_EXPORT_CHUNK_BYTES);
    }
    const tail = Math.min(VERIFIED_TAIL_BYTES, left);
    expected.push(...(left > tail ? [left - tail, tail] : [tail]));
    expect(chunks.map((c) => c.length)).toEqual(expected);
  });

  it('reuses the read blocks of an ended export, and keeps at most four pairs', async () => {
    const pairs = Array.from({ length: 6 }, () => sharedBlocks(artifact.byteSize));
    for (const pair of pairs) releaseBlocks(pair);
    const again = Array.from({ length: 6 }, () => sharedBlocks(artifact.byteSize));
    expect(again.filter((pair) => pairs.includes(pair))).toHaveLength(4);
    // A small artifact's blocks are its own size and never kept.
    const small = sharedBlocks(1000);
    releaseBlocks(small);
    expect(sharedBlocks(1000)).not.toBe(small);
    // Two exports in turn through reused blocks each yield their own file's bytes.
    const { chunks } = await drain();
    expect(Buffer.concat(chunks).equals(await readFile(path()))).toBe(true);
    const second = (
      await store.writeArtifacts('acme', 'b2', makeRecords(2_000, 300), {
        gzipLevel: 0,
      })
    )[0] as WrittenArtifact;
    const out: Uint8Array[] = [];
    for await (const chunk of store.exportArtifact('acme', 'b2', second))
      out.push(Buffer.from(chunk));
    const secondPath = store.layout.artifactPath('acme', 'b2', second.artifactId);
    expect(Buffer.concat(out).equals(await readFile(secondPath))).toBe(true);
  });

  it('holds only the last 64 KiB back until the whole hash matched', async () => {
    // Damage the last byte: every chunk but the tail goes out, then the stream fails.
    const bytes = await readFile(path());
    await writeByteAt(bytes.length - 1, (bytes.at(-1) ?? 0) ^ 0xff);
    const { chunks, code } = await drain();
    expect(code).toBe('data_loss');
    const lastBlock =
      (artifact.byteSize - 256 * 1024) % DEFAULT_EXPORT_CHUNK_BYTES || DEFAULT_EXPORT_CHUNK_BYTES;
    const tail = Math.min(VERIFIED_TAIL_BYTES, lastBlock);
    expect(Buffer.concat(chunks).length).toBe(artifact.byteSize - tail);
  });

  it('no environment variable changes the default chunk size (a leftover CH=x sent empty chunks)', async () => {
    vi.stubEnv('CH', 'x');
    vi.resetModules();
    try {
      const fresh = await import('./artifact-export.js');
      expect(fresh.DEFAULT_EXPORT_CHUNK_BYTES).toBe(1024 * 1024);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.each([Number.NaN, 0, -5, Number.POSITIVE_INFINITY])(
    'a chunk size of %s falls back to the default and still sends every byte',
    async (chunkSize) => {
      const { chunks, code } = await drain(chunkSize);
      expect(code).toBe('ok');
      expect(chunks.every((c) => c.length > 0)).toBe(true);
      expect(Buffer.concat(chunks).equals(await readFile(path()))).toBe(true);
    },
  );

  it.each([
    ['the first', () => 0],
    ['a middle', (size: number) => Math.floor(size / 2)],
    ['the last', (size: number) => size - 1],
  ])(
    'throws data_loss before the chunk that completes the artifact when %s byte is flipped',
    async (_, at) => {
      const bytes = await readFile(path());
      const where = at(bytes.length);
      await writeByteAt(where, (bytes[where] ?? 0) ^ 0xff);
      const { chunks, code } = await drain(1_000);
      expect(code).toBe('data_loss');
      expect(Buffer.concat(chunks).length).toBeLessThan(artifact.byteSize);
    },
  );

  it('throws data_loss without yielding anything when the file was truncated', async () => {
    await truncate(path(), artifact.byteSize - 1);
    expect(await drain(1_000)).toEqual({ chunks: [], code: 'data_loss' });
  });

  it('throws data_loss (not not_found) when a catalogued artifact file is missing', async () => {
    await rm(path());
    expect(await drain()).toEqual({ chunks: [], code: 'data_loss' });
  });

  it('when the file changes while it is streamed, fails before the chunk that would complete it', async () => {
    const chunkSize = 4_096;
    const stream = store.exportArtifact('acme', 'b1', artifact, { chunkSize });
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(artifact.byteSize).toBeGreaterThan(3 * 1024 * 1024);
    // Damage a byte the stream has not reached yet: two read blocks past the first chunk (the
    // block after the one being sent is read ahead; bytes read before the change still match).
    const bytes = await readFile(path());
    const at = bytes.length - 10;
    await writeByteAt(at, (bytes[at] ?? 0) ^ 0xff);
    let sent = (first.value as Uint8Array).length;
    let code = 'ok';
    try {
      for (let r = await stream.next(); !r.done; r = await stream.next()) sent += r.value.length;
    } catch (error) {
      code = (error as { code?: string }).code ?? String(error);
    }
    expect(code).toBe('data_loss');
    expect(sent).toBeLessThan(artifact.byteSize);
  });

  it('when cancelled, throws cancelled', async () => {
    const controller = new AbortController();
    const pull = async () => {
      const chunks = store.exportArtifact('acme', 'b1', artifact, { signal: controller.signal });
      for await (const _chunk of chunks) controller.abort();
    };
    expect(await codeOf(pull())).toBe('cancelled');
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'closes the file when the consumer stops early',
    async () => {
      const openHandles = async () => {
        const links = await Promise.all(
          (await readdir('/proc/self/fd')).map((fd) =>
            readlink(`/proc/self/fd/${fd}`).catch(() => ''),
          ),
        );
        return links.filter((l) => l === path()).length;
      };
      const stream = store.exportArtifact('acme', 'b1', artifact, { chunkSize: 1_000 });
      await stream.next();
      expect(await openHandles()).toBe(1);
      await stream.return(undefined);
      expect(await openHandles()).toBe(0);
    },
  );
});
