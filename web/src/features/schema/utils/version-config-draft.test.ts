import { describe, expect, it } from 'vitest';
import {
  checkVersionConfigDraft,
  emptyStep,
  type VersionConfigDraft,
} from './version-config-draft';

function draft(steps: [string, string, string][], current = '1', target = '3'): VersionConfigDraft {
  return {
    current,
    target,
    steps: steps.map(([from, to, patch]) => ({ ...emptyStep(from, to), patch })),
  };
}

describe('checkVersionConfigDraft', () => {
  it('builds the config, a blank patch meaning a version bump only', () => {
    const result = checkVersionConfigDraft(
      draft([
        ['1', '2', '[{"op":"add","path":"/v","value":2}]'],
        ['2', '3', ''],
      ]),
    );
    expect(result).toEqual({
      ok: true,
      config: {
        currentVersion: 1,
        targetVersion: 3,
        migrations: [
          {
            fromVersion: 1,
            toVersion: 2,
            transform: { ops: [{ op: 'add', path: '/v', valueJson: '2' }] },
          },
          { fromVersion: 2, toVersion: 3 },
        ],
      },
    });
  });

  it('puts each mistake by its field', () => {
    const result = checkVersionConfigDraft(
      draft(
        [
          ['1', '1', ''],
          ['1', '2', '[{"op":"add"}]'],
          ['x', '4', ''],
        ],
        '2',
        '1',
      ),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.target).toBe('Cannot be below the current version 2');
    expect(result.errors.steps[0]).toEqual({ to: 'Must be above the from version 1' });
    expect(result.errors.steps[1]?.from).toBe('Step 1 already leaves version 1');
    expect(result.errors.steps[1]?.patch).toContain('Operation 1: "path" must be a JSON Pointer');
    expect(result.errors.steps[2]).toEqual({ from: 'A whole number of 0 or more' });
  });

  it('refuses versions beyond uint32', () => {
    const result = checkVersionConfigDraft(draft([], '1', '4294967296'));
    expect(result).toMatchObject({ ok: false, errors: { target: 'At most 4294967295' } });
  });
});
