import { failedPrecondition, invalidArgument } from '../../errors.js';
import type { VersionConfig } from './types.js';
import { isUint32 } from './uint32.js';
import { validateTransform } from './value-transform.js';

/** Check a version config; throws InvalidArgument naming the field (e.g. config.migrations[1].to_version). */
export function validateVersionConfig(config: VersionConfig, field = 'config'): void {
  checkVersion(config.currentVersion, `${field}.current_version`);
  checkVersion(config.targetVersion, `${field}.target_version`);
  if (config.targetVersion < config.currentVersion) {
    throw invalidArgument(
      `${field}.target_version`,
      `${config.targetVersion} is below current_version ${config.currentVersion}`,
    );
  }
  if (!Array.isArray(config.migrations)) {
    throw invalidArgument(`${field}.migrations`, 'must be a list of migration steps');
  }
  // Gaps in the chain are allowed here: planning reports them for the entries that need them.
  const seen = new Map<number, number>();
  config.migrations.forEach((step, index) => {
    const stepField = `${field}.migrations[${index}]`;
    checkVersion(step.fromVersion, `${stepField}.from_version`);
    checkVersion(step.toVersion, `${stepField}.to_version`);
    if (step.toVersion <= step.fromVersion) {
      throw invalidArgument(
        `${stepField}.to_version`,
        `${step.toVersion} must be greater than from_version ${step.fromVersion}`,
      );
    }
    const earlier = seen.get(step.fromVersion);
    if (earlier !== undefined) {
      throw invalidArgument(
        `${stepField}.from_version`,
        `duplicate from_version ${step.fromVersion} (also migrations[${earlier}])`,
      );
    }
    seen.set(step.fromVersion, index);
    if (step.transform !== undefined) validateTransform(step.transform, `${stepField}.transform`);
  });
}

/** A copy of the config aiming at a new target; a target below the current version is FailedPrecondition. */
export function advanceTarget(
  config: VersionConfig,
  newTarget: number,
  field = 'new_target_version',
): VersionConfig {
  checkVersion(newTarget, field);
  if (newTarget < config.currentVersion) {
    throw failedPrecondition(
      `target version ${newTarget} is below the current version ${config.currentVersion}`,
    );
  }
  return { ...config, targetVersion: newTarget };
}

function checkVersion(version: unknown, field: string): void {
  if (!isUint32(version)) throw invalidArgument(field, 'must be an unsigned 32-bit integer');
}
