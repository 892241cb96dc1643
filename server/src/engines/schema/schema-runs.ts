import { raiseCurrentVersion } from '../../storage/schema/schema-store.js';
import type { StoredEntry } from '../../storage/data/tree-db.js';
import { failedPrecondition } from '../errors.js';
import {
  ComplianceAccumulator,
  migrateValue,
  planMigration,
  validateTransform,
  type StepObserver,
  type ValueTransform,
  type VersionConfig,
} from './core/index.js';
import type { ComplianceReport, RemediationReport, RunControl } from './records.js';
import {
  checkTree,
  normalisePolicy,
  type PolicyInput,
  type SchemaEngine,
} from './schema-engine.js';
import { decideRemediations } from './remediation-page.js';
import { treePages } from './tree-pages.js';
import { rewriteTree, type EntryDecision, type RewriteCheckpoint } from './tree-rewrite.js';

/** What a migration run needs: the tree and the version it goes to (the config's target). */
export interface MigrationPlan {
  config: VersionConfig;
  fromVersion: number;
  toVersion: number;
}

/** Plans current → target with core; a gap in the chain is FailedPrecondition before any work. */
export async function planTreeMigration(
  engine: SchemaEngine,
  tenant: string,
  treeName: string,
): Promise<MigrationPlan> {
  const config = await engine.requireVersionConfig(tenant, treeName);
  planMigration(config, config.currentVersion, config.targetVersion);
  return { config, fromVersion: config.currentVersion, toVersion: config.targetVersion };
}

/**
 * Moves every entry below the target through the migration steps, page by page; a value whose
 * step fails becomes a MIGRATION_FAILED dead letter and the run goes on. At the end the config's
 * current version is the target. `kind` files the report (MIGRATION or ADVANCE_AND_MIGRATE).
 */
export async function migrateTree(
  engine: SchemaEngine,
  target: { tenant: string; treeName: string; kind: string },
  control: RunControl<RewriteCheckpoint>,
): Promise<RemediationReport> {
  const { tenant, treeName } = target;
  checkTree(tenant, treeName);
  const config = await engine.requireVersionConfig(tenant, treeName);
  // A resumed run keeps the versions it started with, even if the config moved meanwhile.
  const fromVersion = control.checkpointValue?.fromVersion ?? config.currentVersion;
  const toVersion = control.checkpointValue?.toVersion ?? config.targetVersion;
  planMigration(config, fromVersion, toVersion);
  const chain: VersionConfig = { ...config, targetVersion: toVersion };
  const decide = (entries: readonly StoredEntry[]) =>
    entries.map((entry) => decideMigration(entry, fromVersion, chain));
  return rewriteTree(
    engine,
    {
      tenant,
      treeName,
      kind: target.kind,
      fromVersion,
      toVersion,
      decide,
      finish: async () => {
        await raiseCurrentVersion(engine.storage, tenant, treeName, toVersion, engine.clock());
      },
    },
    control,
  );
}

/**
 * What a migration from `fromVersion` to `chain.targetVersion` does with one entry (the run and
 * its preview share it, so the preview cannot disagree with the run). `onStep` sees each step.
 */
export function decideMigration(
  entry: StoredEntry,
  fromVersion: number,
  chain: VersionConfig,
  onStep?: StepObserver,
): EntryDecision {
  // Version 0 means "written before the tree had a version config": it is in the current shape.
  const version = entry.schemaVersion === 0 ? fromVersion : entry.schemaVersion;
  if (version >= chain.targetVersion) return { kind: 'keep' };
  const value = parseStored(entry);
  if (!value.ok) return deadLetter('MIGRATION_FAILED', value.message, entry.schemaVersion);
  const result = migrateValue(value.value, version, chain, onStep);
  if (!result.ok) {
    return {
      kind: 'dead_letter',
      reason: 'MIGRATION_FAILED',
      errors: [result.message],
      schemaVersion: entry.schemaVersion,
      failedStep: result.failedStep,
    };
  }
  return { kind: 'write', value: result.value, schemaVersion: result.version };
}

/** A remediation request: the transform for failing values and the policy they must meet. */
export interface RemediationInput {
  transform: ValueTransform;
  targetPolicy: PolicyInput;
}

/** Checks a remediation request up front (InvalidArgument naming transform or target_policy). */
export async function checkRemediation(
  engine: SchemaEngine,
  tenant: string,
  input: RemediationInput,
): Promise<void> {
  validateTransform(input.transform, 'transform');
  await engine.compilePolicy(tenant, normalisePolicy(input.targetPolicy), 'target_policy');
}

/**
 * Remediates every value of a tree toward the target policy (core.decideRemediation): passing
 * values are untouched, fixed ones written back, the rest dead-lettered. On success the target
 * policy becomes the tree's policy.
 */
export async function remediateTree(
  engine: SchemaEngine,
  target: { tenant: string; treeName: string },
  input: RemediationInput,
  control: RunControl<RewriteCheckpoint>,
): Promise<RemediationReport> {
  const { tenant, treeName } = target;
  checkTree(tenant, treeName);
  await checkRemediation(engine, tenant, input);
  const policy = normalisePolicy(input.targetPolicy);
  const current = await engine.getPolicy(tenant, treeName);
  const decide = async (entries: readonly StoredEntry[]): Promise<EntryDecision[]> => {
    const parsed = entries.map(parseStored);
    const values = parsed.flatMap((value) => (value.ok ? [value.value] : []));
    const decisions = await decideRemediations(
      engine,
      { tenant, jsonSchema: policy.jsonSchema },
      input.transform,
      values,
    );
    let next = 0;
    return entries.map((entry, index): EntryDecision => {
      const value = parsed[index]!;
      if (!value.ok) return deadLetter('TRANSFORM_FAILED', value.message, entry.schemaVersion);
      const decision = decisions[next++]!;
      if (decision.kind === 'already_compliant') return { kind: 'keep' };
      if (decision.kind === 'transformed') {
        return { kind: 'write', value: decision.value, schemaVersion: entry.schemaVersion };
      }
      return {
        kind: 'dead_letter',
        reason: decision.reason,
        errors: decision.errors,
        schemaVersion: entry.schemaVersion,
      };
    });
  };
  return rewriteTree(
    engine,
    {
      tenant,
      treeName,
      kind: 'REMEDIATION',
      fromVersion: control.checkpointValue?.fromVersion ?? current?.version ?? 0,
      toVersion: policy.version,
      decide,
      finish: async () => {
        await engine.setPolicy(tenant, treeName, input.targetPolicy, control.createdBy);
      },
    },
    control,
  );
}

/** The tree's policy compiled for a scan; FailedPrecondition when the tree has none. */
export async function requireScanPolicy(engine: SchemaEngine, tenant: string, treeName: string) {
  const policy = await engine.getPolicy(tenant, treeName);
  if (!policy) throw failedPrecondition(`tree '${treeName}' has no schema policy to scan against`);
  return policy;
}

/** Counts compliant and non-compliant values page by page, keeping the first 100 violations. */
export async function scanTree(
  engine: SchemaEngine,
  target: { tenant: string; treeName: string },
  control: RunControl<unknown>,
): Promise<ComplianceReport> {
  const { tenant, treeName } = target;
  checkTree(tenant, treeName);
  const policy = await requireScanPolicy(engine, tenant, treeName);
  const accumulator = new ComplianceAccumulator();
  for await (const page of treePages(engine.storage, tenant, treeName, engine.pageSize)) {
    control.throwIfCancelled();
    const parsed = page.entries.map(parseStored);
    const keys: string[] = [];
    const values: unknown[] = [];
    page.entries.forEach((entry, index) => {
      const value = parsed[index]!;
      if (value.ok) {
        keys.push(entry.key);
        values.push(value.value);
      }
    });
    // Once the report holds its violations, only verdicts are needed: no messages are built.
    const detail = accumulator.full ? 'verdict' : 'violations';
    const verdicts = await engine.validateMany(
      { tenant, jsonSchema: policy.jsonSchema, detail },
      values,
    );
    let next = 0;
    page.entries.forEach((entry, index) => {
      const value = parsed[index]!;
      if (!value.ok) accumulator.addUnparseable(entry.key, value.message);
      else accumulator.addVerdict(keys[next]!, verdicts[next++]!);
    });
    control.progress(accumulator.report().scanned, 0);
  }
  control.throwIfCancelled();
  const tally = accumulator.report();
  return {
    treeId: treeName,
    policyVersion: policy.version,
    scanned: tally.scanned,
    compliant: tally.compliant,
    nonCompliant: tally.nonCompliant,
    violations: [...tally.violations],
    scannedAt: engine.clock(),
  };
}

function deadLetter(
  reason: 'MIGRATION_FAILED' | 'TRANSFORM_FAILED',
  message: string,
  schemaVersion: number,
): EntryDecision {
  return { kind: 'dead_letter', reason, errors: [message], schemaVersion };
}

function parseStored(
  entry: StoredEntry,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(entry.valueJson ?? 'null') as unknown };
  } catch (error) {
    return { ok: false, message: `stored value is not valid JSON: ${(error as Error).message}` };
  }
}
