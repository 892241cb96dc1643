import { describe, expect, it } from 'vitest';
import { compileSchema, type MigrationStep } from '../core/index.js';
import { MigrationPreviewAccumulator, type StepTrace } from './migration-preview-accumulator.js';

const ADD: MigrationStep = {
  fromVersion: 1,
  toVersion: 2,
  transform: { ops: [{ op: 'add', path: '/v', valueJson: '2' }] },
};
const BUMP: MigrationStep = { fromVersion: 2, toVersion: 3 };

function traced(before: object): { after: object; trace: StepTrace[] } {
  const after = { ...before, v: 2 };
  return {
    after,
    trace: [
      { step: ADD, before, after },
      { step: BUMP, before: after, after },
    ],
  };
}

describe('MigrationPreviewAccumulator', () => {
  it('counts every changed entry but keeps only the sample limit, and a version-only step changes nothing', () => {
    const tally = new MigrationPreviewAccumulator([ADD, BUMP], 2);
    for (const key of ['a', 'b', 'c']) {
      const { after, trace } = traced({ key });
      tally.add(key, { kind: 'write', value: after, schemaVersion: 3 }, trace);
    }
    tally.add('d', { kind: 'keep' }, []);
    const report = tally.report();
    expect(report).toMatchObject({ scanned: 4, wouldChange: 3, unchanged: 1, wouldDeadLetter: 0 });
    expect(report.steps.map((s) => [s.entered, s.changed, s.samples.length])).toEqual([
      [3, 3, 2],
      [3, 0, 0],
    ]);
    expect(report.steps[0]!.samples[0]).toEqual({
      key: 'a',
      beforeJson: '{"key":"a"}',
      afterJson: '{"key":"a","v":2}',
    });
  });

  it('blames the failing step, dead-letters an unstorable result as the run would, and counts policy failures', () => {
    const policy = compileSchema(JSON.stringify({ properties: { v: { maximum: 1 } } }));
    const tally = new MigrationPreviewAccumulator([ADD, BUMP], 20);
    tally.add(
      'gap',
      {
        kind: 'dead_letter',
        reason: 'MIGRATION_FAILED',
        errors: ['no migration step from version 7'],
        schemaVersion: 7,
        failedStep: { fromVersion: 7 },
      },
      [],
    );
    tally.add(
      'patch',
      {
        kind: 'dead_letter',
        reason: 'MIGRATION_FAILED',
        errors: ['migration step 1→2: boom'],
        schemaVersion: 1,
        failedStep: { fromVersion: 1, toVersion: 2 },
      },
      [],
    );
    tally.add('unstorable', { kind: 'write', value: undefined, schemaVersion: 3 }, []);
    const { after, trace } = traced({});
    const violations = policy.validate(after);
    tally.add('refused', { kind: 'write', value: after, schemaVersion: 3 }, trace, {
      kind: 'fail',
      violations,
    });
    const report = tally.report();
    expect(report).toMatchObject({ wouldChange: 1, wouldDeadLetter: 3, policyRefused: 1 });
    expect(report.failures.map((f) => [f.key, f.reason, f.fromVersion, f.toVersion])).toEqual([
      ['gap', 'MIGRATION_FAILED', 0, 0],
      ['patch', 'MIGRATION_FAILED', 1, 2],
      ['unstorable', 'TRANSFORM_FAILED', 0, 0],
    ]);
    expect(report.steps[0]).toMatchObject({ entered: 2, changed: 1, failed: 1 });
    expect(report.policySamples).toEqual([
      { key: 'refused', reasons: [expect.stringContaining('/v')] },
    ]);
  });
});
