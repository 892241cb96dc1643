import { failedPrecondition } from '../../errors.js';
import type { MigrationStep, VersionConfig } from './types.js';
import { applyTransform, formatTransformFailure } from './value-transform.js';

/** The step a migration stopped at; toVersion is absent when no step leaves fromVersion. */
export interface FailedStep {
  readonly fromVersion: number;
  readonly toVersion?: number;
}

/** The outcome of migrating one value: the migrated value, or why it could not be migrated. */
export type MigrationResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly version: number;
      readonly stepsApplied: number;
    }
  | {
      readonly ok: false;
      readonly reason: 'MIGRATION_FAILED';
      readonly failedStep: FailedStep;
      readonly message: string;
    };

/** The ordered steps from one version to another; FailedPrecondition names a missing or overshooting step. */
export function planMigration(
  config: VersionConfig,
  fromVersion: number,
  toVersion: number,
): MigrationStep[] {
  const outcome = walk(config, fromVersion, toVersion);
  if ('missing' in outcome) throw failedPrecondition(outcome.message);
  return outcome.steps;
}

/** One step a value went through: its value before and after (the same without a transform). */
export type StepObserver = (step: MigrationStep, before: unknown, after: unknown) => void;

/**
 * Walk a value from its version to the config's target; a value at or past the target is left
 * alone. `onStep` sees every step that succeeded (the migration preview samples them).
 */
export function migrateValue(
  value: unknown,
  entryVersion: number,
  config: VersionConfig,
  onStep?: StepObserver,
): MigrationResult {
  if (entryVersion >= config.targetVersion) {
    return { ok: true, value, version: entryVersion, stepsApplied: 0 };
  }
  // A gap fails this value, not the run: other entries may sit on versions the chain does cover.
  const outcome = walk(config, entryVersion, config.targetVersion);
  if ('missing' in outcome) {
    return {
      ok: false,
      reason: 'MIGRATION_FAILED',
      failedStep: outcome.missing,
      message: outcome.message,
    };
  }
  let current = value;
  for (const step of outcome.steps) {
    if (step.transform === undefined) {
      onStep?.(step, current, current);
      continue;
    }
    const result = applyTransform(current, step.transform);
    if (!result.ok) {
      return {
        ok: false,
        reason: 'MIGRATION_FAILED',
        failedStep: { fromVersion: step.fromVersion, toVersion: step.toVersion },
        message: `migration step ${step.fromVersion}→${step.toVersion}: ${formatTransformFailure(result)}`,
      };
    }
    onStep?.(step, current, result.value);
    current = result.value;
  }
  return {
    ok: true,
    value: current,
    version: config.targetVersion,
    stepsApplied: outcome.steps.length,
  };
}

type Walk = { steps: MigrationStep[] } | { missing: FailedStep; message: string };

function walk(config: VersionConfig, fromVersion: number, toVersion: number): Walk {
  const byFrom = new Map(config.migrations.map((step) => [step.fromVersion, step]));
  const steps: MigrationStep[] = [];
  let version = fromVersion;
  while (version < toVersion) {
    const step = byFrom.get(version);
    if (step === undefined) {
      return {
        missing: { fromVersion: version },
        message: `no migration step from version ${version} (migrating ${fromVersion}→${toVersion})`,
      };
    }
    // Checked here too, not only in validation, so a stored config can never loop this walk.
    if (step.toVersion <= version || step.toVersion > toVersion) {
      return {
        missing: { fromVersion: step.fromVersion, toVersion: step.toVersion },
        message: `migration step ${step.fromVersion}→${step.toVersion} does not lead to version ${toVersion}`,
      };
    }
    steps.push(step);
    version = step.toVersion;
  }
  return { steps };
}
