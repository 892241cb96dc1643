import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../artifacts/ndjson-codec.js';
import { ContentDigest } from './content-digest.js';
import { OffThreadContentDigest } from './off-thread-digest.js';

// Keys and values whose JSON quoting escapes, and whose UTF-8 takes 2, 3 and 4 bytes a character.
const TRICKY: [string, string | null][] = [
  ['plain', '{"v":1}'],
  ['with "quotes" and \\ backslashes', '"say \\"hi\\" C:\\\\dir"'],
  ['control \u0000\u0001\u001f\t\n\r\b\f', '"\\u0000\\t\\n"'],
  ['two bytes: é ß ж', '"ü ñ"'],
  ['three bytes: ✓ € 中文', '["✓","€"]'],
  ['four bytes: 😀 𝄞 𠜎', '{"emoji":"😀"}'],
  ['lone surrogate \ud800 end', '"\\ud800"'],
  ['looks like a field ,"sequence":1,"valueJson":null', '",\\"sequence\\":2"'],
  ['gone', null],
  ['', 'null'],
];

/** `copies` rounds of the tricky entries (each key made unique), as encoded artifact lines. */
function runs(copies: number, linesPerRun: number): Buffer[] {
  const lines: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const [key, valueJson] of TRICKY) {
      lines.push(
        encodeRecord({
          key: `${key} #${copy}`,
          valueJson,
          sequence: lines.length + 1,
          schemaVersion: 2,
        }),
      );
    }
  }
  const out: Buffer[] = [];
  for (let at = 0; at < lines.length; at += linesPerRun) {
    out.push(Buffer.from(lines.slice(at, at + linesPerRun).join('')));
  }
  return out;
}

function inThread(chunks: Buffer[]): string {
  const digest = new ContentDigest();
  for (const chunk of chunks) digest.addEncodedLines(chunk);
  return digest.toString();
}

async function offThread(chunks: Buffer[]): Promise<string> {
  const digest = new OffThreadContentDigest();
  for (const chunk of chunks) await digest.addEncodedLines(chunk);
  return (await digest.digest()).toString();
}

describe('the content digest hashed off the main thread', () => {
  it('equals the in-thread digest for tricky texts, past the inline share (several MiB)', async () => {
    // ≈ 0.9 KiB a round of ten lines: 8 000 rounds are ≈ 7 MiB, most of it on the worker.
    const chunks = runs(8_000, 700);
    expect(chunks.reduce((n, c) => n + c.length, 0)).toBeGreaterThan(4 * 1024 * 1024);
    const expected = inThread(chunks);
    expect(await offThread(chunks)).toBe(expected);
    // Tombstones are not content: nine of every ten lines count.
    expect(expected.endsWith(`:${8_000 * 9}`)).toBe(true);
  });

  it('equals it for a small scope too (hashed inline) and for the sum of two digests at once', async () => {
    const small = runs(3, 4);
    expect(await offThread(small)).toBe(inThread(small));
    const big = runs(5_000, 500);
    const [a, b] = await Promise.all([offThread(big), offThread(runs(6_000, 300))]);
    expect(a).toBe(inThread(big));
    expect(b).toBe(inThread(runs(6_000, 300)));
  });

  it('fails as the in-thread digest does on a line encodeRecord would not write', async () => {
    const chunks = runs(4_000, 1_000);
    chunks.push(Buffer.from('{"key":"x","valueJson":"1"}\n'));
    expect(() => inThread(chunks)).toThrow(
      'an encoded line does not read as encodeRecord writes it',
    );
    const digest = new OffThreadContentDigest();
    const added = (async () => {
      for (const chunk of chunks) await digest.addEncodedLines(chunk);
      return digest.digest();
    })();
    await expect(added).rejects.toThrow('an encoded line does not read as encodeRecord writes it');
  });
});
