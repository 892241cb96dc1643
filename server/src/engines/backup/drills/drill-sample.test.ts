import { describe, expect, it } from 'vitest';
import { DrillSample } from './drill-sample.js';

const record = (key: string, valueJson: string | null) => ({
  key,
  valueJson,
  sequence: 1,
  schemaVersion: 0,
});

describe('a drill sample', () => {
  it('holds every key of a tree smaller than the sample, with the newest value in chain order (null: deleted)', () => {
    const sample = new DrillSample(7, 100);
    sample.see(record('b', '1'));
    sample.see(record('a', '2'));
    sample.see(record('b', '3'));
    sample.see(record('a', null));
    expect(sample.entries()).toEqual([
      { key: 'a', valueJson: null },
      { key: 'b', valueJson: '3' },
    ]);
  });

  it('picks the same keys for the same seed whatever the read order, other keys for another seed', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `key-${i}`);
    const pick = (seed: number, order: string[]) => {
      const sample = new DrillSample(seed, 100);
      for (const key of order) sample.see(record(key, `"${key}"`));
      return sample.entries().map((e) => e.key);
    };
    const forward = pick(11, keys);
    expect(forward).toHaveLength(100);
    expect(pick(11, [...keys].reverse())).toEqual(forward);
    expect(pick(12, keys)).not.toEqual(forward);
    // A key overwritten later keeps its place and takes the later value.
    const sample = new DrillSample(11, 100);
    for (const key of keys) sample.see(record(key, '1'));
    sample.see(record(forward[0]!, '2'));
    expect(sample.entries().find((e) => e.key === forward[0])?.valueJson).toBe('2');
  });

  it('a size of 0 samples nothing', () => {
    const sample = new DrillSample(1, 0);
    sample.see(record('a', '1'));
    expect(sample.entries()).toEqual([]);
  });
});
