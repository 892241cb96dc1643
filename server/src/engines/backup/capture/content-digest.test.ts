import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../artifacts/ndjson-codec.js';
import { ContentDigest, describeContentDigest, parseContentDigest } from './content-digest.js';

const ENTRIES: [string, string][] = [
  ['a', '{"v":1}'],
  ['with "quotes" and \\ and \n', '"text with \\"escapes\\" and é ✓"'],
  ['ключ', '[1,2,{"x":null}]'],
  ['ab', 'null'],
];

function linesOf(entries: [string, string | null][]): Buffer {
  return Buffer.from(
    entries
      .map(([key, valueJson], i) =>
        encodeRecord({ key, valueJson, sequence: i + 1, schemaVersion: 3 }),
      )
      .join(''),
  );
}

describe('the content digest', () => {
  it('is the same whichever order the entries come in, and whether hashed from lines or from records', () => {
    const fromRecords = new ContentDigest();
    for (const [key, value] of ENTRIES) fromRecords.addEntry(key, value);
    const reversed = new ContentDigest();
    reversed.addEncodedLines(linesOf([...ENTRIES].reverse()));
    expect(reversed.toString()).toBe(fromRecords.toString());
    expect(parseContentDigest(fromRecords.toString())?.count).toBe(4);
  });

  it('leaves tombstones out and ignores sequence and schema version', () => {
    const live = new ContentDigest();
    live.addEncodedLines(linesOf(ENTRIES));
    const withTombstones = new ContentDigest();
    withTombstones.addEncodedLines(linesOf([...ENTRIES, ['gone', null], ['also gone', null]]));
    expect(withTombstones.toString()).toBe(live.toString());
    const restamped = new ContentDigest();
    restamped.addEncodedLines(
      Buffer.from(
        ENTRIES.map(([key, valueJson]) =>
          encodeRecord({ key, valueJson, sequence: 999, schemaVersion: 1 }),
        ).join(''),
      ),
    );
    expect(restamped.toString()).toBe(live.toString());
  });

  it('moves when a key, a value or the count changes, and the key/value boundary cannot be shifted', () => {
    const of = (entries: [string, string][]) => {
      const d = new ContentDigest();
      for (const [k, v] of entries) d.addEntry(k, v);
      return d.toString();
    };
    const base = of(ENTRIES);
    expect(of([...ENTRIES.slice(0, 3), ['ab', '"null"']])).not.toBe(base);
    expect(of([...ENTRIES.slice(0, 3), ['ac', 'null']])).not.toBe(base);
    expect(of(ENTRIES.slice(0, 3))).not.toBe(base);
    expect(of([...ENTRIES, ['a', '{"v":1}']])).not.toBe(base);
    expect(of([['a"', '"b"']])).not.toBe(of([['a', '""b"']]));
  });

  it('adds two digests of disjoint entries into the digest of their union (the sum carries)', () => {
    const whole = new ContentDigest();
    const left = new ContentDigest();
    const right = new ContentDigest();
    for (let i = 0; i < 500; i++) {
      const key = `k${i}`;
      const value = JSON.stringify({ i });
      whole.addEntry(key, value);
      (i % 2 === 0 ? left : right).addEntry(key, value);
    }
    left.addDigest(right);
    expect(left.toString()).toBe(whole.toString());
    expect(whole.toString()).toMatch(/^sum-sha256:[0-9a-f]{64}:500$/);
  });

  it('is the plain definition: the sum of the SHA-256 of each entry text modulo 2^256, for tricky texts', () => {
    // Quotes, backslashes, control characters, 2-, 3- and 4-byte UTF-8, a lone surrogate.
    const tricky: [string, string][] = [
      ['say "hi" \\ C:\\dir', '"\\"quoted\\" \\\\"'],
      ['ctl \u0000\u0001\u001f\t\n', '"\\u0000\\t"'],
      ['é ß ж ✓ € 中文 😀 𝄞', '{"e":"😀 ✓"}'],
      ['lone \ud800', '"\\ud800"'],
    ];
    const entries = Array.from({ length: 300 }, (_, i) => tricky[i % tricky.length]!).map(
      ([key, value], i): [string, string] => [`${key} ${i}`, value],
    );
    let sum = 0n;
    for (const [key, value] of entries) {
      const text = `${JSON.stringify(key)},"valueJson":${JSON.stringify(value)}`;
      sum += BigInt(`0x${createHash('sha256').update(text, 'utf8').digest('hex')}`);
    }
    const expected = `sum-sha256:${(sum % 2n ** 256n).toString(16).padStart(64, '0')}:300`;
    const fromEntries = new ContentDigest();
    for (const [key, value] of entries) fromEntries.addEntry(key, value);
    const fromLines = new ContentDigest();
    fromLines.addEncodedLines(linesOf(entries));
    expect(fromEntries.toString()).toBe(expected);
    expect(fromLines.toString()).toBe(expected);
  });

  it('refuses lines that do not read as artifact lines', () => {
    expect(() => new ContentDigest().addEncodedLines(Buffer.from('{"nope":1}\n'))).toThrow(
      /encodeRecord/,
    );
  });

  it('says in words what it covers, or that a backup has none', () => {
    expect(describeContentDigest(null)).toMatch(/captured before content digests/);
    expect(describeContentDigest('')).toMatch(/captured before content digests/);
    const d = new ContentDigest();
    d.addEntry('k', '1');
    expect(describeContentDigest(d.toString())).toMatch(/^SHA-256 sum over 1 entry of the scope/);
  });
});
