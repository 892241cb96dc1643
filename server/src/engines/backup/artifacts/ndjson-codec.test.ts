import { describe, expect, it } from 'vitest';
import { EncodedLineSplitter, LineSplitter, encodeRecord } from './ndjson-codec.js';

const line = (key: string, valueJson: string | null, sequence: number, schemaVersion: number) =>
  encodeRecord({ key, valueJson, sequence, schemaVersion });

describe('EncodedLineSplitter', () => {
  it('hands out whole lines only, however the chunks fall, with their counts', () => {
    const text =
      line('a', '{"x":"y,\\"sequence\\":1"}', 12, 3) +
      line('b "null"', null, 7, 11) +
      line('c', '"null"', 123456789, 0);
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const splitter = new EncodedLineSplitter();
      const runs = [splitter.push(bytes.subarray(0, cut)), splitter.push(bytes.subarray(cut))];
      splitter.end();
      const whole = runs.filter((r) => r !== undefined);
      expect(Buffer.concat(whole.map((r) => r.bytes)).toString()).toBe(text);
      expect(whole.reduce((n, r) => n + r.entries, 0)).toBe(3);
      expect(whole.reduce((n, r) => n + r.tombstones, 0)).toBe(1);
      expect(Math.max(...whole.map((r) => r.maxSchemaVersion))).toBe(11);
    }
  });

  it('refuses a stream cut inside a line and a line in another format', () => {
    const cut = new EncodedLineSplitter();
    cut.push(Buffer.from(line('a', '1', 1, 0).slice(0, 10)));
    expect(() => cut.end()).toThrow(/inside a line/);
    expect(() => new EncodedLineSplitter().push(Buffer.from('{"key":"a","sequence":1}\n'))).toThrow(
      /does not end as encodeRecord/,
    );
  });
});

describe('LineSplitter', () => {
  it('hands out whole lines however the chunks cut them, also inside a character', () => {
    const lines = [line('é/😀', '"ü"', 1, 2), line('b', null, 3, 0), line('\uE000', '{}', 4, 1)];
    const bytes = Buffer.from(lines.join(''));
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const splitter = new LineSplitter();
      const out = [...splitter.push(bytes.subarray(0, cut)), ...splitter.push(bytes.subarray(cut))];
      splitter.end();
      expect(out).toEqual(lines.map((l) => l.slice(0, -1)));
    }
    const cutShort = new LineSplitter();
    cutShort.push(bytes.subarray(0, bytes.length - 1));
    expect(() => cutShort.end()).toThrow(expect.objectContaining({ code: 'data_loss' }));
  });
});
