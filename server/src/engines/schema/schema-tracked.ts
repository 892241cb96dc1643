import type { OperationRunner } from '../operations/operation-runner.js';
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

/** Who starts a tracked schema operation, in which tenant, with which tracking id. */
export interface StartContext {
  tenant: string;
  createdBy: string;
  trackingId?: string | undefined;
}

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
  async startComplianceScan(start: StartContext, treeName: string): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    await requireScanPolicy(this.engine, start.tenant, treeName);
    return this.submit(start, 'COMPLIANCE_SCAN', treeName, { treeName });
  }

  /** Starts a tracked migration to the target; a gap in the chain is FailedPrecondition now. */
  async startMigration(start: StartContext, treeName: string): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    await planTreeMigration(this.engine, start.tenant, treeName);
    return this.submit(start, 'MIGRATION', treeName, { treeName });
  }

  /**
   * Checks the new target and the chain to it now, then starts a tracked run that raises the
   * target and migrates. The raise happens in the run, so a tracking id reused with another
   * request (AlreadyExists) changes nothing.
   */
  async startAdvanceAndMigrate(
    start: StartContext,
    treeName: string,
    newTargetVersion: number,
  ): Promise<OperationRecord> {
    await advanceForMigration(this.engine, start.tenant, treeName, newTargetVersion, {
      store: false,
    });
    return this.submit(start, 'ADVANCE_AND_MIGRATE', treeName, { treeName, newTargetVersion });
  }

  /** Starts a tracked remediation; a bad transform or policy is InvalidArgument now. */
  async startRemediation(
    start: StartContext,
    treeName: string,
    input: { transform: ValueTransform; targetPolicy: PolicyInput },
  ): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    await checkRemediation(this.engine, start.tenant, input);
    const request: RemediationRequest = {
      treeName,
      transform: input.transform,
      targetPolicy: input.targetPolicy,
    };
    return this.submit(start, 'REMEDIATION', treeName, request);
  }

  private submit(start: StartContext, kind: string, treeName: string, request: object) {
    return this.runner.submit({
      tenant: start.tenant,
      kind,
      request,
      targetId: treeName,
      trackingId: start.trackingId,
      createdBy: start.createdBy,
    });
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
