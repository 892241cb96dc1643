import { describe, expect, it } from 'vitest';
import { ComplianceAccumulator } from './compliance-accumulator.js';
import { compileSchema } from './policy-compiler.js';

const policy = compileSchema(
  '{"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"}}}',
);

describe('ComplianceAccumulator', () => {
  it('counts compliant and non-compliant entries across pages', () => {
    const tally = new ComplianceAccumulator(policy);
    tally.addPage([
      { key: 'a', value: { n: 1 } },
      { key: 'b', value: { n: 'x' } },
    ]);
    tally.addPage([{ key: 'c', value: {} }]);
    expect(tally.report()).toEqual({
      scanned: 3,
      compliant: 2,
      nonCompliant: 1,
      violations: [{ key: 'b', path: '/n', message: 'must be number' }],
    });
  });

  it('keeps only the first 100 violations but counts every entry', () => {
    const tally = new ComplianceAccumulator(policy);
    for (let page = 0; page < 3; page += 1) {
      // Each bad entry has two violations, so the list fills after 50 of them.
      tally.addPage(
        Array.from({ length: 100 }, (_, i) => ({ key: `k${page}-${i}`, value: { n: 'x', s: 1 } })),
      );
    }
    tally.add('good', { n: 1 });
    const report = tally.report();
    expect(report).toMatchObject({ scanned: 301, compliant: 1, nonCompliant: 300 });
    expect(report.violations).toHaveLength(100);
    expect(report.violations[0]).toEqual({ key: 'k0-0', path: '/n', message: 'must be number' });
    expect(report.violations[99]?.key).toBe('k0-49');
  });

  it('cuts one entry’s violations at the limit', () => {
    const tally = new ComplianceAccumulator(policy, 1);
    tally.add('a', { n: 'x', s: 1 });
    expect(tally.report().violations).toEqual([
      { key: 'a', path: '/n', message: 'must be number' },
    ]);
  });

  it('counts stored text that is not JSON as non-compliant', () => {
    const tally = new ComplianceAccumulator(policy);
    tally.addJson('ok', '{"n":2}');
    tally.addJson('bad', '{nope');
    const report = tally.report();
    expect(report).toMatchObject({ scanned: 2, compliant: 1, nonCompliant: 1 });
    expect(report.violations[0]).toMatchObject({ key: 'bad', path: '' });
    expect(report.violations[0]?.message).toMatch(/^stored value is not valid JSON: /);
  });

  it('returns a snapshot that later pages do not change', () => {
    const tally = new ComplianceAccumulator(policy);
    tally.add('a', { n: 'x' });
    const before = tally.report();
    tally.add('b', { n: 'y' });
    expect(before.violations).toHaveLength(1);
    expect(before.scanned).toBe(1);
  });
});
