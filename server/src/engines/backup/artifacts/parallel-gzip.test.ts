import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ParallelGzip } from './parallel-gzip.js';

/** The header Node's zlib writes at the start of every gzip member (no name, mtime 0, Unix). */
const MEMBER_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);

async function compress(chunks: Buffer[], blockBytes: number, parallel = 3): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    new ParallelGzip({ level: 6, blockBytes, parallel }),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out.push(chunk);
        callback();
      },
    }),
  );
  return Buffer.concat(out);
}

function members(gzip: Buffer): number {
  let count = 0;
  for (let at = gzip.indexOf(MEMBER_HEADER); at !== -1; at = gzip.indexOf(MEMBER_HEADER, at + 1)) {
    count += 1;
  }
  return count;
}

/** Lines that differ from block to block, so members written out of order would not round-trip. */
function lines(count: number): Buffer {
  const text = Array.from({ length: count }, (_, i) => `{"key":"k${i}","n":${i * 7919}}\n`);
  return Buffer.from(text.join(''), 'utf8');
}

describe('ParallelGzip', () => {
  it('writes members in input order that gunzip reads back as the whole input', async () => {
    const input = lines(20_000);
    const chunks = [];
    for (let at = 0; at < input.length; at += 3_000) chunks.push(input.subarray(at, at + 3_000));
    const gzip = await compress(chunks, 16 * 1024);
    expect(gunzipSync(gzip).equals(input)).toBe(true);
    // One member per ~16 KiB block: the input was really cut and compressed in pieces.
    expect(members(gzip)).toBeGreaterThanOrEqual(Math.floor(input.length / (16 * 1024 + 3_000)));
  });

  it('keeps order with one member compressing at a time, and with many', async () => {
    const input = lines(5_000);
    const chunks = [input.subarray(0, 70_000), input.subarray(70_000)];
    for (const parallel of [1, 8]) {
      expect(gunzipSync(await compress(chunks, 4 * 1024, parallel)).equals(input)).toBe(true);
    }
  });

  it('turns empty input into one empty member, and a short input into one member', async () => {
    const empty = await compress([], 1024);
    expect(members(empty)).toBe(1);
    expect(gunzipSync(empty).length).toBe(0);
    const short = await compress([Buffer.from('one line\n')], 1024);
    expect(members(short)).toBe(1);
    expect(gunzipSync(short).toString()).toBe('one line\n');
  });

  it('is read whole by the gzip an admin runs (gzip -t, gzip -dc)', async () => {
    const input = lines(3_000);
    const dir = mkdtempSync(join(tmpdir(), 'parallel-gzip-'));
    try {
      const file = join(dir, 'part.ndjson.gz');
      writeFileSync(file, await compress([input], 8 * 1024));
      execFileSync('gzip', ['-t', file]);
      expect(execFileSync('gzip', ['-dc', file]).equals(input)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails the stream when destroyed mid-way, leaving nothing unhandled', async () => {
    const gzip = new ParallelGzip({ level: 6, blockBytes: 1024, parallel: 2 });
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) {
          if (i === 10) gzip.destroy(new Error('disk gone'));
          yield lines(100);
        }
      })(),
    );
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await expect(pipeline(source, gzip, sink)).rejects.toThrow('disk gone');
  });
});
