import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../artifacts/ndjson-codec.js';
import { liveEntryOf, sameEntry, sideEntryOf, valueOf } from './entry-line.js';

const line = (key: string, valueJson: string | null, sequence: number, schemaVersion: number) =>
  encodeRecord({ key, valueJson, sequence, schemaVersion }).slice(0, -1);

describe('comparison lines', () => {
  it('reads the key of plain, escaped and unicode keys as the full parser does', () => {
    const keys = ['a/b', 'quote " key', 'back\\slash', 'tab\tnew\nline', 'é/😀/\u{e000}', ''];
    for (const key of keys) {
      const entry = sideEntryOf(line(key, '{"v":1}', 3, 2));
      expect(entry.key).toBe(key);
      expect(entry.tombstone).toBe(false);
    }
  });

  it("reads a live line's key only when asked, as the full parser reads it", () => {
    const keys = ['a/b', 'quote " key', 'back\\slash', 'é/😀/\u{e000}', ''];
    for (const key of keys) {
      const entry = liveEntryOf(line(key, '{"v":1}', 3, 2));
      expect(entry.line).toBe(line(key, '{"v":1}', 3, 2));
      expect(entry.tombstone).toBe(false);
      expect(entry.key).toBe(key);
      expect(entry.key).toBe(key);
    }
  });

  it('tells a tombstone from a value, also one whose text looks like the tail', () => {
    expect(sideEntryOf(line('k', null, 9, 0)).tombstone).toBe(true);
    expect(sideEntryOf(line('k', 'null', 9, 0)).tombstone).toBe(false);
    const tricky = sideEntryOf(line('k', '{"x":"l\\",\\"sequence\\":1"}', 9, 4));
    expect(tricky.tombstone).toBe(false);
    expect(valueOf(tricky)).toEqual({
      valueJson: '{"x":"l\\",\\"sequence\\":1"}',
      schemaVersion: 4,
    });
  });

  it('counts lines equal but for their sequence as the same entry, any other difference not', () => {
    const base = sideEntryOf(line('k', '{"v":"é"}', 1, 2));
    expect(sameEntry(base, sideEntryOf(line('k', '{"v":"é"}', 1, 2)))).toBe(true);
    expect(sameEntry(base, sideEntryOf(line('k', '{"v":"é"}', 987654, 2)))).toBe(true);
    expect(sameEntry(base, sideEntryOf(line('k', '{"v":"e"}', 1, 2)))).toBe(false);
    expect(sameEntry(base, sideEntryOf(line('k', '{"v":"é"}', 1, 3)))).toBe(false);
    expect(sameEntry(base, sideEntryOf(line('k', '{"v":"é"} ', 1, 2)))).toBe(false);
  });

  it('compares values written with other escapes by their parsed value', () => {
    const plain = sideEntryOf(line('k', '"é"', 1, 2));
    // The same record with the value's characters escaped (a JSON writer other than ours).
    const escaped = sideEntryOf(
      '{"key":"k","valueJson":"\\"\\u00e9\\"","sequence":5,"schemaVersion":2}',
    );
    expect(plain.line).not.toBe(escaped.line);
    expect(sameEntry(plain, escaped)).toBe(true);
  });

  it('rejects lines that are not entry records as DataLoss', () => {
    for (const bad of ['', 'garbage', '{"key":"k"}', '{"key":"k","valueJson":"1","sequence":1']) {
      expect(() => sideEntryOf(bad)).toThrow(expect.objectContaining({ code: 'data_loss' }));
    }
    const broken = sideEntryOf('{"key":"k","valueJson":"1"x","sequence":1,"schemaVersion":0}');
    expect(() => valueOf(broken)).toThrow(expect.objectContaining({ code: 'data_loss' }));
  });
});
