import { createHash } from 'node:crypto';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { canonicalJson } from '../../data/canonical-json.js';
import { planMigration, type MigrationStep, type VersionConfig } from '../core/index.js';
import type { RunControl, StoredPolicy } from '../records.js';
import { checkTree, type SchemaEngine } from '../schema-engine.js';
import { decideMigration } from '../schema-runs.js';
import { advanceForMigration } from '../schema-tracked.js';
import { liveEntryCount, treePages } from '../tree-pages.js';
import {
  MigrationPreviewAccumulator,
  type MigrationPreviewTally,
  type StepTrace,
} from './migration-preview-accumulator.js';

/** What is previewed: StartMigration (no new target) or StartAdvanceAndMigrate (a new target). */
export interface MigrationPreviewInput {
  newTargetVersion?: number | undefined;
  sampleLimit: number;
}

/** A migration preview's report: the tally plus what it was evaluated against. */
export interface MigrationPreviewReport extends MigrationPreviewTally {
  treeId: string;
  fromVersion: number;
  toVersion: number;
  /** The policy in force when the preview ran (null: none). */
  policy: StoredPolicy | null;
  /** The tree's sequence high-water mark and physical tree when reading began (0/null: no tree). */
  treeSequence: number;
  physicalTreeId: string | null;
  /** SHA-256 of the version config and policy the preview read. */
  planHash: string;
  evaluatedAt: number;
}

/** The migration a preview stands for, planned as the run would plan it. */
interface PreviewPlan {
  config: VersionConfig;
  chain: VersionConfig;
  steps: MigrationStep[];
}

/**
 * Checks the request as StartMigration or StartAdvanceAndMigrate would (FailedPrecondition for a
 * tree without a config, a target below current, a gap in the chain) and plans the migration the
 * run would make: AdvanceAndMigrate only ever raises the target, so it goes to the higher of the
 * config's target and the new one.
 */
export async function planPreview(
  engine: SchemaEngine,
  tenant: string,
  treeName: string,
  newTargetVersion: number | undefined,
): Promise<PreviewPlan> {
  checkTree(tenant, treeName);
  if (newTargetVersion !== undefined) {
    await advanceForMigration(engine, tenant, treeName, newTargetVersion, { store: false });
  }
  const config = await engine.requireVersionConfig(tenant, treeName);
  const toVersion = Math.max(config.targetVersion, newTargetVersion ?? 0);
  const steps = planMigration(config, config.currentVersion, toVersion);
  return { config, chain: { ...config, targetVersion: toVersion }, steps };
}

/**
 * Reads every live entry of a tree, page by page, and reports what the migration would do to
 * it: per step, the entries it changes with before/after samples; the entries it would
 * dead-letter; the migrated values the policy in force fails. Writes nothing.
 */
export async function previewMigration(
  engine: SchemaEngine,
  target: { tenant: string; treeName: string },
  input: MigrationPreviewInput,
  control: RunControl<unknown>,
): Promise<MigrationPreviewReport> {
  const { tenant, treeName } = target;
  const plan = await planPreview(engine, tenant, treeName, input.newTargetVersion);
  const policy = (await engine.getPolicy(tenant, treeName)) ?? null;
  // Read before the entries: any write while the preview reads makes it stale, never fresh.
  const tree = await resolveTree(engine.storage, tenant, treeName);
  const total = await liveEntryCount(engine.storage, tenant, treeName);
  const accumulator = new MigrationPreviewAccumulator(plan.steps, input.sampleLimit);
  const fromVersion = plan.config.currentVersion;
  control.progress(0, total);
  for await (const page of treePages(engine.storage, tenant, treeName, engine.pageSize)) {
    control.throwIfCancelled();
    const decided = page.entries.map((entry) => {
      const trace: StepTrace[] = [];
      const decision = decideMigration(entry, fromVersion, plan.chain, (step, before, after) =>
        trace.push({ step, before, after }),
      );
      return { key: entry.key, decision, trace };
    });
    // The migrated values the policy in force would judge: one round trip per page.
    const written = decided.flatMap(({ decision }) =>
      decision.kind === 'write' && storable(decision.value) ? [decision.value] : [],
    );
    const verdicts = policy
      ? await engine.validateMany({ tenant, jsonSchema: policy.jsonSchema }, written)
      : [];
    let next = 0;
    for (const { key, decision, trace } of decided) {
      const judged = decision.kind === 'write' && storable(decision.value);
      accumulator.add(key, decision, trace, judged ? verdicts[next++] : undefined);
    }
    const done = accumulator.scanned;
    control.progress(done, Math.max(total, done));
  }
  control.throwIfCancelled();
  return {
    treeId: treeName,
    fromVersion,
    toVersion: plan.chain.targetVersion,
    policy,
    treeSequence: tree?.lastSequence ?? 0,
    physicalTreeId: tree?.physicalTreeId ?? null,
    planHash: planHash(plan.config, policy),
    evaluatedAt: engine.clock(),
    ...accumulator.report(),
  };
}

/**
 * Whether the tree, its version config or its policy changed since the preview read them: a
 * write or delete raises the tree's sequence, a restore swaps its physical tree, and a new
 * config or policy changes what the migration would do.
 */
export async function previewIsStale(
  engine: SchemaEngine,
  tenant: string,
  report: MigrationPreviewReport,
): Promise<boolean> {
  const [tree, config, policy] = await Promise.all([
    resolveTree(engine.storage, tenant, report.treeId),
    engine.getVersionConfig(tenant, report.treeId),
    engine.getPolicy(tenant, report.treeId),
  ]);
  return (
    (tree?.physicalTreeId ?? null) !== report.physicalTreeId ||
    (tree?.lastSequence ?? 0) !== report.treeSequence ||
    config === undefined ||
    planHash(config, policy ?? null) !== report.planHash
  );
}

function planHash(config: VersionConfig, policy: StoredPolicy | null): string {
  const migrations = [...config.migrations]
    .sort((a, b) => a.fromVersion - b.fromVersion)
    .map((step) => [step.fromVersion, step.toVersion, step.transform?.ops ?? null]);
  const read = {
    currentVersion: config.currentVersion,
    targetVersion: config.targetVersion,
    migrations,
    policy: policy && [policy.jsonSchema, policy.mode, policy.version],
  };
  return createHash('sha256').update(JSON.stringify(read)).digest('hex');
}

// The accumulator reports a migrated value that is not storable JSON as TRANSFORM_FAILED.
function storable(value: unknown): boolean {
  try {
    canonicalJson(value);
    return true;
  } catch {
    return false;
  }
}
