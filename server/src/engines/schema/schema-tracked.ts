import type { OperationRunner } from '../operations/operation-runner.js';
import { startTracked, type Starter } from '../operations/start-tracked.js';
import type { OperationContext, OperationRecord } from '../operations/types.js';
import { advanceTarget, planMigration, type ValueTransform } from './core/index.js';
import type { ComplianceReport, RemediationReport, RunControl } from './records.js';
import { checkTree, type PolicyInput, type SchemaEngine } from './schema-engine.js';
import {
  checkRemediation,
  migrateTree,
  planTreeMigration,
  remediateTree,
  requireScanPolicy,
  scanTree,
} from './schema-runs.js';
import type { RewriteCheckpoint } from './tree-rewrite.js';

interface TreeRequest {
  treeName: string;
}
interface AdvanceRequest extends TreeRequest {
  newTargetVersion: number;
}
interface RemediationRequest extends TreeRequest {
  transform: ValueTransform;
  targetPolicy: PolicyInput;
}

/** The run controls a schema engine loop needs, from the runner's operation context. */
export function controlOf<C>(ctx: OperationContext<unknown, C>): RunControl<C> {
  return {
    operationId: ctx.operationId,
    createdBy: ctx.createdBy,
    signal: ctx.signal,
    throwIfCancelled: () => ctx.throwIfCancelled(),
    progress: (done, total) => ctx.progress({ done, total, unit: 'entries' }),
    checkpoint: (value) => ctx.checkpoint(value),
    get checkpointValue() {
      return ctx.checkpointValue;
    },
  };
}

/**
 * The schema engine's tracked operations on the shared runner: registers the four schema kinds
 * and submits work after the same up-front checks the blocking RPCs make, so a bad request fails
 * at once (InvalidArgument, FailedPrecondition) instead of as a FAILED operation.
 */
export class SchemaOperations {
  constructor(
    private readonly engine: SchemaEngine,
    private readonly runner: OperationRunner,
  ) {}

  /** Registers COMPLIANCE_SCAN, REMEDIATION, MIGRATION and ADVANCE_AND_MIGRATE on the runner. */
  register(): void {
    const engine = this.engine;
    this.runner.register<TreeRequest, unknown>('COMPLIANCE_SCAN', {
      // A scan is a read: rerunning it from the start is cheaper than checkpointing a tally.
      resumable: false,
      run: (ctx): Promise<ComplianceReport> =>
        scanTree(engine, { tenant: ctx.tenant, treeName: ctx.request.treeName }, controlOf(ctx)),
    });
    this.runner.register<TreeRequest, RewriteCheckpoint>('MIGRATION', {
      resumable: true,
      run: (ctx): Promise<RemediationReport> =>
        migrateTree(
          engine,
          { tenant: ctx.tenant, treeName: ctx.request.treeName, kind: 'MIGRATION' },
          controlOf(ctx),
        ),
    });
    this.runner.register<AdvanceRequest, RewriteCheckpoint>('ADVANCE_AND_MIGRATE', {
      resumable: true,
      run: async (ctx): Promise<RemediationReport> => {
        const { treeName, newTargetVersion } = ctx.request;
        // Raise-only, and only on a fresh run: a resumed run already raised it.
        const config = await engine.requireVersionConfig(ctx.tenant, treeName);
        if (config.targetVersion < newTargetVersion && ctx.checkpointValue === undefined) {
          await engine.storeConfig(ctx.tenant, treeName, advanceTarget(config, newTargetVersion));
        }
        return migrateTree(
          engine,
          { tenant: ctx.tenant, treeName, kind: 'ADVANCE_AND_MIGRATE' },
          controlOf(ctx),
        );
      },
    });
    this.runner.register<RemediationRequest, RewriteCheckpoint>('REMEDIATION', {
      resumable: true,
      run: (ctx): Promise<RemediationReport> =>
        remediateTree(
          engine,
          { tenant: ctx.tenant, treeName: ctx.request.treeName },
          { transform: ctx.request.transform, targetPolicy: ctx.request.targetPolicy },
          controlOf(ctx),
        ),
    });
  }

  /** Starts a tracked compliance scan; FailedPrecondition when the tree has no policy. */
  async startComplianceScan(start: Starter, treeName: string): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    return this.start(start, 'COMPLIANCE_SCAN', treeName, { treeName }, async () => {
      await requireScanPolicy(this.engine, start.tenant, treeName);
    });
  }

  /** Starts a tracked migration to the target; a gap in the chain is FailedPrecondition now. */
  async startMigration(start: Starter, treeName: string): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    return this.start(start, 'MIGRATION', treeName, { treeName }, async () => {
      await planTreeMigration(this.engine, start.tenant, treeName);
    });
  }

  /**
   * Checks the new target and the chain to it now, then starts a tracked run that raises the
   * target and migrates. The raise happens in the run, so a tracking id reused with another
   * request (AlreadyExists) changes nothing.
   */
  async startAdvanceAndMigrate(
    start: Starter,
    treeName: string,
    newTargetVersion: number,
  ): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    const request: AdvanceRequest = { treeName, newTargetVersion };
    return this.start(start, 'ADVANCE_AND_MIGRATE', treeName, request, () =>
      advanceForMigration(this.engine, start.tenant, treeName, newTargetVersion, {
        store: false,
      }),
    );
  }

  /** Starts a tracked remediation; a bad transform or policy is InvalidArgument now. */
  async startRemediation(
    start: Starter,
    treeName: string,
    input: { transform: ValueTransform; targetPolicy: PolicyInput },
  ): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    const request: RemediationRequest = {
      treeName,
      transform: input.transform,
      targetPolicy: input.targetPolicy,
    };
    return this.start(start, 'REMEDIATION', treeName, request, async () => {
      await checkRemediation(this.engine, start.tenant, input);
    });
  }

  /** Starts `kind` on the tree; `checks` run only when the tracking id is new (startTracked). */
  private start(
    start: Starter,
    kind: string,
    treeName: string,
    request: object,
    checks: () => Promise<void>,
  ): Promise<OperationRecord> {
    return startTracked(this.runner, start, { kind, request, targetId: treeName }, checks);
  }
}

/**
 * Raises a tree's target version for AdvanceAndMigrate after checking the chain reaches it, so
 * a below-current target or a gap fails before anything is changed; `store: false` only checks.
 */
export async function advanceForMigration(
  engine: SchemaEngine,
  tenant: string,
  treeName: string,
  newTargetVersion: number,
  options: { store: boolean } = { store: true },
): Promise<void> {
  checkTree(tenant, treeName);
  const config = await engine.requireVersionConfig(tenant, treeName);
  const advanced = advanceTarget(config, newTargetVersion);
  planMigration(advanced, advanced.currentVersion, advanced.targetVersion);
  if (options.store) await engine.storeConfig(tenant, treeName, advanced);
}
