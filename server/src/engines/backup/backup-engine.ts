import { digestOfTree } from './capture/scope-digest.js';
import { getBackupRow } from '../../storage/backup/backup-store.js';
import type { SubjectNamer } from './lifecycle/protection-refusal.js';
import { configureHealthMonitoring } from '../../storage/backup/backup-health-store.js';
import type { Storage } from '../../storage/database.js';
import { countLiveEntries } from '../../storage/data/physical-tree-store.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { StoreError, failedPrecondition, invalidArgument, notFound } from '../errors.js';
import {
  startTracked,
  type OperationLogger,
  type OperationRecord,
  type OperationRunner,
  type Starter,
} from '../operations/index.js';
import { type ArtifactStore, DirectoryArtifactStore, assertArtifactId } from './artifacts/index.js';
import {
  registerBackupKinds,
  type CaptureScopeKey,
  type ScheduledCaptureFacts,
} from './backup-operations.js';
import type {
  BackupManifestDoc,
  CaptureRequest,
  HealthConfig,
  HealthReport,
  RestoreRequest,
  RestoreResult,
  SetCaptureRequest,
} from './backup-types.js';
import { CaptureService } from './capture/capture-service.js';
import { CatalogService } from './catalog/catalog-service.js';
import { recordVerifiedExport } from './health/export-verification.js';
import { checkBackupHealth } from './health/health-check.js';
import {
  revertRestore,
  type RevertAcknowledgmentFields,
  type RevertOutcome,
} from './restore/revert.js';
import type { DrillTestSeams } from './drills/drill-types.js';
import { RestoreDrills } from './drills/restore-drills.js';
import { DrillPlans } from './drills/drill-plans.js';
import { RestoreService, validateRestoreRequest } from './restore/restore-service.js';
import { BackupBackground, type BackgroundOptions } from './schedules/background-loops.js';
import { ScheduleService } from './schedules/schedule-service.js';
import { validateBackupId, validateInterval } from './validation.js';

export interface BackupEngineOptions {
  storage: Storage;
  /** Where artifacts live: a store (app.ts builds it from STORE_ARTIFACT_URL) or a directory. */
  artifacts: ArtifactStore | string;
  runner: OperationRunner;
  /** STORE_SCHEDULER_MIN_INTERVAL in ms. */
  schedulerMinIntervalMs: number;
  /** STORE_HEALTH_MONITORING. */
  healthMonitoring: boolean;
  clock?: () => number;
  logger?: OperationLogger | undefined;
  /** Names people in messages (the author of a protection a delete is refused for). */
  subjectNames?: SubjectNamer | undefined;
  /** Told of each due schedule run this replica started, with its lag (metrics). */
  onScheduledRun?: BackgroundOptions['onScheduledRun'];
  /** Test seam: runs after each page a capture reads. */
  afterCapturePage?: () => Promise<void>;
  /** Test seam: runs after each batch a restore applies. */
  afterRestoreBatch?: () => Promise<void>;
  /** Test seams of restore drills: planted faults (drills/drill-types.ts). */
  drillTestSeams?: DrillTestSeams;
  /** Restored entries from which a SQLite drill reads back on worker threads (default 20 000). */
  drillReadBackWorkersFrom?: number;
}

/**
 * The backup engine: captures, catalog, restores, export, health, maintenance and schedules over
 * the database and the artifact store. Tracked work runs through the operations runner; the
 * methods here validate first, so a bad request fails at once instead of as a FAILED operation.
 */
export class BackupEngine {
  readonly artifacts: ArtifactStore;
  readonly catalog: CatalogService;
  readonly schedules: ScheduleService;
  readonly healthMonitoringAvailable: boolean;
  readonly drills: RestoreDrills;
  readonly drillPlans: DrillPlans;
  private readonly captures: CaptureService;
  private readonly restores: RestoreService;
  private readonly background: BackupBackground;
  private readonly storage: Storage;
  private readonly runner: OperationRunner;
  private readonly clock: () => number;
  private readonly minIntervalMs: number;
  private readonly logger: OperationLogger | undefined;
  private readonly scheduledCaptureListeners: Array<
    (tenant: string, scope: CaptureScopeKey, capture: ScheduledCaptureFacts) => Promise<unknown>
  > = [];

  constructor(options: BackupEngineOptions) {
    this.minIntervalMs = options.schedulerMinIntervalMs;
    this.storage = options.storage;
    this.runner = options.runner;
    this.clock = options.clock ?? Date.now;
    this.logger = options.logger;
    this.artifacts =
      typeof options.artifacts === 'string'
        ? new DirectoryArtifactStore(options.artifacts)
        : options.artifacts;
    this.catalog = new CatalogService(this.storage, this.artifacts, options.subjectNames);
    this.captures = new CaptureService(
      this.storage,
      this.artifacts,
      this.clock,
      options.afterCapturePage,
    );
    this.restores = new RestoreService(
      this.storage,
      this.artifacts,
      this.clock,
      options.afterRestoreBatch,
    );
    this.schedules = new ScheduleService(this.storage, options.schedulerMinIntervalMs, this.clock);
    this.healthMonitoringAvailable = options.healthMonitoring;
    this.drills = new RestoreDrills({
      storage: this.storage,
      runner: this.runner,
      restores: this.restores,
      clock: this.clock,
      logger: options.logger,
      ...(options.drillTestSeams && { testSeams: options.drillTestSeams }),
      ...(options.drillReadBackWorkersFrom !== undefined && {
        readBackWorkersFrom: options.drillReadBackWorkersFrom,
      }),
    });
    this.drills.register();
    this.drillPlans = new DrillPlans({
      storage: this.storage,
      runner: this.runner,
      drills: this.drills,
      minIntervalMs: options.schedulerMinIntervalMs,
      clock: this.clock,
      logger: options.logger,
    });
    this.background = new BackupBackground({
      storage: this.storage,
      runner: this.runner,
      clock: this.clock,
      tickMs: Math.min(5000, Math.max(100, Math.floor(options.schedulerMinIntervalMs / 4))),
      healthMonitoring: options.healthMonitoring,
      minIntervalMs: options.schedulerMinIntervalMs,
      logger: options.logger,
      onScheduledRun: options.onScheduledRun,
      drillPlans: this.drillPlans,
    });
    registerBackupKinds(this.runner, {
      storage: this.storage,
      artifacts: this.artifacts,
      captures: this.captures,
      restores: this.restores,
      clock: this.clock,
      afterScheduledCapture: (tenant, scope, capture) =>
        this.afterScheduledCapture(tenant, scope, capture),
    });
  }

  /**
   * Runs `listener` after each scheduled capture that published a backup (retention applies the
   * scope's rules then). A failing listener is logged; the capture still succeeded.
   */
  onScheduledCapture(
    listener: (
      tenant: string,
      scope: CaptureScopeKey,
      capture: ScheduledCaptureFacts,
    ) => Promise<unknown>,
  ): void {
    this.scheduledCaptureListeners.push(listener);
  }

  private async afterScheduledCapture(
    tenant: string,
    scope: CaptureScopeKey,
    capture: ScheduledCaptureFacts,
  ): Promise<void> {
    for (const listener of this.scheduledCaptureListeners) {
      await listener(tenant, scope, capture).catch((err: unknown) =>
        this.logger?.warn({ err, tenant, scope }, 'after a scheduled capture'),
      );
    }
  }

  /** Starts the scheduler and health monitor. */
  start(): void {
    this.background.start();
    // Scratch trees of drills a killed process left (drills/restore-drills.ts): gone at start.
    void this.drills.sweepLeftovers().catch((error: unknown) => {
      this.logger?.warn({ err: error }, 'restore drill leftovers were not swept');
    });
  }

  /** Stops them and the drills' scratch drops (running operations belong to the runner). */
  async stop(): Promise<void> {
    await Promise.all([this.background.stop(), this.drills.stop()]);
  }

  /** Runs one scheduler / monitor pass now (tests, and a faster first pass at start). */
  tick(): Promise<void> {
    return this.background.tick();
  }

  /** Queues a full or incremental capture of a scope. */
  async startCapture(
    who: Starter,
    request: CaptureRequest,
    incremental: boolean,
  ): Promise<OperationRecord> {
    const kind = incremental ? 'INCREMENTAL_BACKUP' : 'BACKUP';
    return startTracked(this.runner, who, { kind, request, targetId: request.scope.treeId }, () =>
      this.captures.validate(who.tenant, request, incremental),
    );
  }

  /** Queues a backup set over two or more trees. */
  async startSet(who: Starter, request: SetCaptureRequest): Promise<OperationRecord> {
    this.captures.validateSet(request);
    return startTracked(this.runner, who, { kind: 'BACKUP_SET', request, targetId: null });
  }

  /** Queues a restore (hot: chain from the catalog; cold: from the manifests). */
  async startRestore(
    who: Starter,
    request: RestoreRequest,
    cold: boolean,
  ): Promise<OperationRecord> {
    validateRestoreRequest(request);
    const start = {
      kind: cold ? 'COLD_RESTORE' : 'RESTORE',
      request,
      targetId: request.backupId,
    };
    return startTracked(this.runner, who, start, async () => {
      if (cold) {
        await this.artifacts.readManifest<BackupManifestDoc>(who.tenant, request.backupId);
      } else if (!(await getBackupRow(this.storage, who.tenant, request.backupId))) {
        throw notFound(`backup ${request.backupId} does not exist`);
      }
      const earlier = await this.restores.previous(who.tenant, request.operationId);
      if (!earlier && request.mode === 'NEW_TREE' && request.targetTreeId) {
        const tree = await resolveTree(this.storage, who.tenant, request.targetTreeId);
        if (tree && (await countLiveEntries(this.storage, tree.physicalTreeId)) > 0) {
          throw failedPrecondition(
            `tree ${request.targetTreeId} is not empty; a restore into a new tree needs an empty one`,
          );
        }
      }
    });
  }

  /** Queues a health check of a backup. */
  async startHealthCheck(who: Starter, backupId: string): Promise<OperationRecord> {
    validateBackupId(backupId);
    const start = { kind: 'BACKUP_HEALTH_CHECK', request: { backupId }, targetId: backupId };
    return startTracked(this.runner, who, start, async () => {
      if (!(await getBackupRow(this.storage, who.tenant, backupId))) {
        throw notFound(`backup ${backupId} does not exist`);
      }
    });
  }

  /** Queues a catalog rebuild of the caller's tenant. */
  startRebuild(who: Starter): Promise<OperationRecord> {
    return startTracked(this.runner, who, { kind: 'CATALOG_REBUILD', request: {}, targetId: null });
  }

  /** Queues a catalog scrub of the caller's tenant. */
  startScrub(who: Starter, pruneOrphans: boolean): Promise<OperationRecord> {
    const start = { kind: 'CATALOG_SCRUB', request: { pruneOrphans }, targetId: null };
    return startTracked(this.runner, who, start);
  }

  /**
   * Waits for an operation to finish (the obsolete blocking RPCs): its result, or its error
   * raised again with the same code.
   */
  async wait(tenant: string, operationId: string, signal?: AbortSignal): Promise<unknown> {
    for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
      const op = await this.runner.get(tenant, operationId);
      if (!op) throw new StoreError('internal', `operation ${operationId} vanished`);
      if (op.state === 'SUCCEEDED') return op.result;
      if (op.state === 'FAILED' || op.state === 'CANCELLED') {
        const code = (op.error?.code ?? 'cancelled') as StoreError['code'];
        throw new StoreError(code, op.error?.message ?? 'the operation was cancelled');
      }
      if (signal?.aborted) throw new StoreError('cancelled', 'the call was cancelled');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /**
   * The content digest of a tree's live entries (under `keyPrefix`) as the database holds them
   * now (`sum-sha256:<hex>:<count>`): equal to a backup's recorded digest when the tree holds
   * exactly that backup's content (a restore drill compares the two after restoring).
   */
  async contentDigestOfTree(
    tenant: string,
    treeName: string,
    keyPrefix = '',
    signal?: AbortSignal,
  ): Promise<string> {
    return (await digestOfTree(this.storage, tenant, treeName, keyPrefix, signal)).toString();
  }

  /** Verifies a backup now and stores the report (the obsolete CheckBackupHealth). */
  checkHealthNow(tenant: string, backupId: string): Promise<HealthReport> {
    validateBackupId(backupId);
    return checkBackupHealth(this.storage, this.artifacts, tenant, backupId, { now: this.clock });
  }

  /**
   * Swaps an IN_PLACE restore back (trusting only its operation id; writes since need consent);
   * `by` (the caller's subject) is kept for "Reverted by <who>".
   */
  revertRestore(
    tenant: string,
    response: RestoreResult,
    acknowledgment: RevertAcknowledgmentFields,
    by: string,
  ): Promise<RevertOutcome> {
    return revertRestore(this.storage, tenant, response, acknowledgment, this.clock(), by);
  }

  /**
   * Streams a catalogued artifact's stored bytes, verified; NotFound for unknown ids. An export
   * that ran to its end matched the manifest's SHA-256, which may count as a verification of the
   * backup (health/export-verification.ts).
   */
  async *exportArtifact(
    tenant: string,
    backupId: string,
    artifactId: string,
    signal?: AbortSignal,
  ): AsyncGenerator<Uint8Array> {
    validateBackupId(backupId);
    if (!artifactId) throw invalidArgument('artifact_id', 'is required');
    assertArtifactId(artifactId);
    const row = await getBackupRow(this.storage, tenant, backupId);
    if (!row) throw notFound(`backup ${backupId} does not exist`);
    const manifest = JSON.parse(row.manifestJson) as BackupManifestDoc;
    const artifact = manifest.artifacts.find((a) => a.artifactId === artifactId);
    if (!artifact) throw notFound(`backup ${backupId} has no artifact ${artifactId}`);
    yield* this.artifacts.exportArtifact(tenant, backupId, artifact, { signal });
    // The last chunk went out only after the whole file's hash matched (artifact-export.ts).
    await recordVerifiedExport(
      this.storage,
      this.artifacts,
      tenant,
      manifest,
      artifact,
      this.clock(),
    );
  }

  /** The stored report and monitoring config of a backup; undefined when the backup is absent. */
  async getHealth(
    tenant: string,
    backupId: string,
  ): Promise<{ report: HealthReport | undefined; config: HealthConfig | undefined } | undefined> {
    validateBackupId(backupId);
    const row = await getBackupRow(this.storage, tenant, backupId);
    if (!row) return undefined;
    return {
      report: row.healthReportJson ? (JSON.parse(row.healthReportJson) as HealthReport) : undefined,
      config:
        row.healthIntervalMs !== null || row.healthMonitoring
          ? { monitoringEnabled: row.healthMonitoring, intervalMs: row.healthIntervalMs ?? 0 }
          : undefined,
    };
  }

  /**
   * Sets periodic monitoring of a backup. An enabled config needs a positive interval
   * (InvalidArgument otherwise); it is clamped up to the scheduler minimum like a schedule.
   */
  async configureHealth(
    tenant: string,
    backupId: string,
    enabled: boolean,
    intervalMs: number | undefined,
  ): Promise<void> {
    validateBackupId(backupId);
    const valid = intervalMs !== undefined && Number.isFinite(intervalMs) && intervalMs > 0;
    if (enabled && !valid) throw invalidArgument('interval', 'must be a positive duration');
    if (intervalMs !== undefined && intervalMs < 0) {
      throw invalidArgument('interval', 'must not be negative');
    }
    if (intervalMs !== undefined && intervalMs > 0) validateInterval(intervalMs);
    const stored = valid ? Math.max(Math.ceil(intervalMs), this.minIntervalMs) : null;
    const updated = await configureHealthMonitoring(this.storage, {
      tenant,
      backupId,
      enabled,
      intervalMs: stored,
      now: this.clock(),
    });
    if (!updated) throw notFound(`backup ${backupId} does not exist`);
  }
}
