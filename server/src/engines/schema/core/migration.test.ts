import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import { migrateValue, planMigration } from './migration.js';
import type { VersionConfig } from './types.js';
import { advanceTarget, validateVersionConfig } from './version-config.js';

function caught(run: () => unknown): StoreError {
  try {
    run();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

// v1 {name} → v2 {fullName} → v3 {fullName, active}; step 2→3 requires fullName to be a string.
const THREE_VERSIONS: VersionConfig = {
  currentVersion: 1,
  targetVersion: 3,
  migrations: [
    {
      fromVersion: 2,
      toVersion: 3,
      transform: {
        ops: [
          { op: 'test', path: '/fullName', valueJson: '"Ada"' },
          { op: 'add', path: '/active', valueJson: 'true' },
        ],
      },
    },
    {
      fromVersion: 1,
      toVersion: 2,
      transform: { ops: [{ op: 'move', from: '/name', path: '/fullName' }] },
    },
  ],
};

describe('validateVersionConfig', () => {
  it('accepts a chain with steps in any order', () => {
    expect(() => validateVersionConfig(THREE_VERSIONS)).not.toThrow();
  });

  it.each([
    ['a negative current version', { currentVersion: -1 }, 'config.current_version'],
    ['a fractional target', { targetVersion: 2.5 }, 'config.target_version'],
    ['a target below current', { currentVersion: 3, targetVersion: 2 }, 'config.target_version'],
    [
      'a step that does not go forward',
      { migrations: [{ fromVersion: 2, toVersion: 2 }] },
      'config.migrations[0].to_version',
    ],
    [
      'a step version past uint32',
      { migrations: [{ fromVersion: 1, toVersion: 2 ** 32 }] },
      'config.migrations[0].to_version',
    ],
    [
      'a duplicate from_version',
      {
        migrations: [
          { fromVersion: 1, toVersion: 2 },
          { fromVersion: 1, toVersion: 3 },
        ],
      },
      'config.migrations[1].from_version',
    ],
    [
      'an invalid step transform',
      {
        migrations: [
          { fromVersion: 1, toVersion: 2, transform: { ops: [{ op: 'add', path: '/a' }] } },
        ],
      },
      'config.migrations[0].transform.ops[0].value_json',
    ],
  ])('names the field for %s', (_label, change, field) => {
    const error = caught(() =>
      validateVersionConfig({ ...THREE_VERSIONS, ...change } as VersionConfig),
    );
    expect(error.code).toBe('invalid_argument');
    expect(error.field).toBe(field);
  });
});

describe('planMigration', () => {
  it('follows from_version → to_version links in order', () => {
    expect(planMigration(THREE_VERSIONS, 1, 3).map((s) => [s.fromVersion, s.toVersion])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(planMigration(THREE_VERSIONS, 2, 3)).toHaveLength(1);
  });

  it('plans nothing for a value already at or past the target', () => {
    expect(planMigration(THREE_VERSIONS, 3, 3)).toEqual([]);
    expect(planMigration(THREE_VERSIONS, 5, 3)).toEqual([]);
  });

  it('reports a gap as FailedPrecondition naming the missing step', () => {
    const gap: VersionConfig = {
      currentVersion: 1,
      targetVersion: 4,
      migrations: [
        { fromVersion: 1, toVersion: 2 },
        { fromVersion: 3, toVersion: 4 },
      ],
    };
    const error = caught(() => planMigration(gap, 1, 4));
    expect(error.code).toBe('failed_precondition');
    expect(error.message).toContain('no migration step from version 2');
  });

  it('reports a step that jumps past the target as FailedPrecondition', () => {
    const jump: VersionConfig = {
      currentVersion: 1,
      targetVersion: 3,
      migrations: [{ fromVersion: 1, toVersion: 4 }],
    };
    const error = caught(() => planMigration(jump, 1, 3));
    expect(error.code).toBe('failed_precondition');
    expect(error.message).toContain('migration step 1→4 does not lead to version 3');
  });
});

describe('migrateValue', () => {
  it('walks a value over three versions', () => {
    expect(migrateValue({ name: 'Ada' }, 1, THREE_VERSIONS)).toEqual({
      ok: true,
      value: { fullName: 'Ada', active: true },
      version: 3,
      stepsApplied: 2,
    });
  });

  it('names step 2→3 when a value fails it', () => {
    const result = migrateValue({ name: 'Bob' }, 1, THREE_VERSIONS);
    expect(result).toMatchObject({
      ok: false,
      reason: 'MIGRATION_FAILED',
      failedStep: { fromVersion: 2, toVersion: 3 },
    });
    if (!result.ok)
      expect(result.message).toMatch(/^migration step 2→3: transform op 0 \(test \/fullName\)/);
  });

  it('leaves a value at or above the target untouched', () => {
    const value = { anything: 1 };
    expect(migrateValue(value, 3, THREE_VERSIONS)).toEqual({
      ok: true,
      value,
      version: 3,
      stepsApplied: 0,
    });
    expect(migrateValue(value, 7, THREE_VERSIONS)).toMatchObject({ ok: true, version: 7 });
  });

  it('fails only the value, not the run, when its version has no step', () => {
    const result = migrateValue({}, 0, THREE_VERSIONS);
    expect(result).toMatchObject({
      ok: false,
      reason: 'MIGRATION_FAILED',
      failedStep: { fromVersion: 0 },
    });
  });

  it('bumps the version through a step without a transform', () => {
    const config: VersionConfig = {
      currentVersion: 1,
      targetVersion: 2,
      migrations: [{ fromVersion: 1, toVersion: 2 }],
    };
    expect(migrateValue({ a: 1 }, 1, config)).toEqual({
      ok: true,
      value: { a: 1 },
      version: 2,
      stepsApplied: 1,
    });
  });

  it('does not mutate the value it migrates', () => {
    const value = { name: 'Ada' };
    migrateValue(value, 1, THREE_VERSIONS);
    expect(value).toEqual({ name: 'Ada' });
  });
});

describe('advanceTarget', () => {
  it('returns a new config with the new target', () => {
    const advanced = advanceTarget({ ...THREE_VERSIONS, targetVersion: 2 }, 3);
    expect(advanced.targetVersion).toBe(3);
    expect(advanced.migrations).toBe(THREE_VERSIONS.migrations);
  });

  it('refuses a target below the current version with FailedPrecondition', () => {
    const error = caught(() => advanceTarget({ ...THREE_VERSIONS, currentVersion: 2 }, 1));
    expect(error.code).toBe('failed_precondition');
    expect(error.message).toContain('below the current version 2');
  });

  it('refuses a target that is not a uint32 with InvalidArgument', () => {
    expect(caught(() => advanceTarget(THREE_VERSIONS, -1)).field).toBe('new_target_version');
  });
});
