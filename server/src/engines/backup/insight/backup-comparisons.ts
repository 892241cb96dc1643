import { getBackupRow } from '../../../storage/backup/backup-store.js';
import {
  listDifferences,
  pruneOrphanDifferences,
  type DifferenceChange,
  type StoredDifference,
} from '../../../storage/backup/backup-comparison-store.js';
import type { Storage } from '../../../storage/database.js';
import {
  getDifferenceStorage,
  setDifferenceExpiry,
} from '../../../storage/backup/difference-storage-store.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from '../../data/page-tokens.js';
import { validateTreeName } from '../../data/tree-names.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import {
  startTracked,
  type OperationRecord,
  type OperationRunner,
  type OperationState,
  type Starter,
  type TrackedStart,
} from '../../operations/index.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { BackupManifestDoc } from '../backup-types.js';
import { narrowest } from '../restore/restore-service.js';
import { validateBackupId, validateScope } from '../validation.js';
import { runDiff, runPreview, type ComparisonRunDeps } from './comparison-runs.js';
import { FleetHealth } from './fleet-health.js';
import {
  COMPARISON_KINDS,
  type ComparisonReport,
  type ComparisonView,
  type DiffRequest,
  type PreviewRequest,
  type RevertPreviewRequest,
} from './comparison-types.js';
import {
  DEFAULT_DIFFERENCE_LIMITS,
  differencesExpired,
  ensureTenantRoom,
  expiredAt,
  storageView,
  type DifferenceStorageLimits,
} from './difference-storage.js';
import { DifferenceSweeper } from './difference-sweeper.js';
import { revertibleNow, runRevertPreview } from './revert-preview.js';

/** One page of differences and what the comparison stored of them. */
export interface DifferencePage {
  differences: StoredDifference[];
  nextPageToken: string;
  /** Only the first `storedCount` differences were stored; `totalCount` keys differ. */
  truncated: boolean;
  storedCount: number;
  totalCount: number;
}

export interface BackupComparisonsOptions {
  storage: Storage;
  artifacts: ArtifactStore;
  runner: OperationRunner;
  clock?: (() => number) | undefined;
  /** Differences stored per insert (and tree entries read per query, unless set). Default 1000. */
  pageSize?: number | undefined;
  /** Tree entries read per query. Default 5000: a preview reads the whole tree. */
  treePageSize?: number | undefined;
  /** Test seam: runs after each page of differences is stored. */
  afterPage?: (() => Promise<void>) | undefined;
  /** Test seam: previews compare every live entry (see comparison-runs.ts `capturedUpTo`). */
  readWholeTree?: boolean | undefined;
  /** Preview storage caps and expiry; unset ones take DEFAULT_DIFFERENCE_LIMITS. */
  limits?: Partial<DifferenceStorageLimits> | undefined;
}

/**
 * Backup insight: restore previews, backup diffs and revert previews. All are tracked operations
 * that change nothing; their differences go to a table a page at a time, their counts to the
 * operation's result. Requests are checked before they are queued, so a bad one fails at once.
 */
/** A comparison that is not readable yet, in words (no state enum names in messages). */
const STATE_WORDS: Partial<Record<OperationState, string>> = {
  QUEUED: 'is still queued',
  RUNNING: 'is still running',
  FAILED: 'failed',
  CANCELLED: 'was cancelled',
};

export class BackupComparisons {
  private readonly storage: Storage;
  private readonly artifacts: ArtifactStore;
  private readonly runner: OperationRunner;
  private readonly deps: ComparisonRunDeps;
  /** The catalog summary and "verify stale backups" (the dashboard and the fleet health table). */
  readonly fleet: FleetHealth;
  /** Deletes expired differences; the server starts it with its listeners. */
  readonly sweeper: DifferenceSweeper;

  constructor(options: BackupComparisonsOptions) {
    this.storage = options.storage;
    this.artifacts = options.artifacts;
    this.runner = options.runner;
    this.deps = {
      storage: options.storage,
      artifacts: options.artifacts,
      clock: options.clock ?? Date.now,
      pageSize: options.pageSize ?? 1000,
      treePageSize: options.treePageSize ?? options.pageSize ?? 5000,
      afterPage: options.afterPage,
      readWholeTree: options.readWholeTree,
      limits: { ...DEFAULT_DIFFERENCE_LIMITS, ...options.limits },
    };
    // Neither kind resumes: an interrupted comparison ends FAILED and is simply started again.
    this.runner.register<PreviewRequest, unknown>('RESTORE_PREVIEW', {
      resumable: false,
      run: (ctx) => runPreview(this.deps, ctx),
    });
    this.runner.register<DiffRequest, unknown>('BACKUP_DIFF', {
      resumable: false,
      run: (ctx) => runDiff(this.deps, ctx),
    });
    this.runner.register<RevertPreviewRequest, unknown>('REVERT_PREVIEW', {
      resumable: false,
      run: (ctx) => runRevertPreview(this.deps, ctx),
    });
    this.sweeper = new DifferenceSweeper(options.storage, this.deps.clock);
    this.fleet = new FleetHealth({
      storage: options.storage,
      artifacts: options.artifacts,
      runner: options.runner,
      clock: this.deps.clock,
    });
  }

  /** Queues a preview of what restoring `backupId` would do to its target tree now. */
  async startPreview(who: Starter, request: PreviewRequest): Promise<OperationRecord> {
    validateBackupId(request.backupId);
    const targetTreeId = request.targetTreeId ?? '';
    if (targetTreeId !== '') validateTreeName(targetTreeId, 'target_tree_id');
    const scope = request.scope && validateScope(request.scope);
    const normalized: PreviewRequest = {
      backupId: request.backupId,
      targetTreeId,
      ...(scope && { scope }),
      cold: request.cold,
    };
    const start = { kind: 'RESTORE_PREVIEW', request: normalized, targetId: request.backupId };
    return this.start(who, start, async () => {
      const manifest = request.cold
        ? (await this.artifacts.readManifest<BackupManifestDoc>(who.tenant, request.backupId))
            .manifest
        : await this.catalogued(who.tenant, request.backupId, 'backup_id');
      if (narrowest(scope?.keyPrefix ?? '', manifest.keyPrefix ?? '') === null) {
        throw invalidArgument('scope.key_prefix', 'lies outside the backup');
      }
    });
  }

  /** Queues a diff of two backups of one tree (`fromBackupId` is the "before" side). */
  async startDiff(who: Starter, request: DiffRequest): Promise<OperationRecord> {
    validateBackupId(request.fromBackupId, 'from_backup_id');
    validateBackupId(request.toBackupId, 'to_backup_id');
    const scope = request.scope && validateScope(request.scope);
    const normalized: DiffRequest = {
      fromBackupId: request.fromBackupId,
      toBackupId: request.toBackupId,
      ...(scope && { scope }),
    };
    const start = { kind: 'BACKUP_DIFF', request: normalized, targetId: request.toBackupId };
    return this.start(who, start, async () => {
      const from = await this.catalogued(who.tenant, request.fromBackupId, 'from_backup_id');
      const to = await this.catalogued(who.tenant, request.toBackupId, 'to_backup_id');
      if (from.treeName !== to.treeName) {
        throw failedPrecondition(
          `backup ${from.backupId} is of tree ${from.treeName} and ${to.backupId} of ` +
            `${to.treeName}: a diff compares two backups of one tree`,
        );
      }
      const shared = narrowest(from.keyPrefix ?? '', to.keyPrefix ?? '');
      if (shared === null) {
        throw failedPrecondition('the two backups cover key prefixes that do not overlap');
      }
      if (narrowest(scope?.keyPrefix ?? '', shared) === null) {
        throw invalidArgument('scope.key_prefix', 'lies outside the backups');
      }
    });
  }

  /**
   * Queues a preview of what RevertRestore of an in-place restore would do to its tree now; a
   * restore that could not be reverted is refused at once, with the reason the revert would give.
   */
  async startRevertPreview(who: Starter, request: RevertPreviewRequest): Promise<OperationRecord> {
    const normalized: RevertPreviewRequest = { restoreOperationId: request.restoreOperationId };
    const start = {
      kind: 'REVERT_PREVIEW',
      request: normalized,
      targetId: request.restoreOperationId,
    };
    return this.start(who, start, async () => {
      await revertibleNow(this.storage, who.tenant, request.restoreOperationId);
    });
  }

  /**
   * The report of a succeeded comparison, and for a preview whether its tree changed since (any
   * write raises the tree's sequence; a restore swaps its physical tree). Undefined when absent.
   */
  async view(tenant: string, operationId: string): Promise<ComparisonView | undefined> {
    const op = await this.runner.get(tenant, operationId, COMPARISON_KINDS);
    if (!op) return undefined;
    if (op.state !== 'SUCCEEDED') {
      return { report: undefined, treeChanged: false, currentTreeSequence: 0 };
    }
    const report = op.result as ComparisonReport;
    const stored = await getDifferenceStorage(this.storage, tenant, operationId);
    const storage = stored && storageView(stored, this.deps.clock());
    if (report.kind === 'BACKUP_DIFF') {
      return { report, treeChanged: false, currentTreeSequence: 0, storage };
    }
    const tree = await resolveTree(this.storage, tenant, report.treeId);
    const currentTreeSequence = tree?.lastSequence ?? 0;
    const treeChanged =
      (tree?.physicalTreeId ?? null) !== report.physicalTreeId ||
      currentTreeSequence !== report.treeSequence;
    return { report, treeChanged, currentTreeSequence, storage };
  }

  /**
   * Keeps a succeeded comparison's differences from expiring (they last as long as its operation
   * record and still count against the tenant's cap), or with `release` lets them expire one
   * expiry period from now. FailedPrecondition once they expired.
   */
  async keep(
    tenant: string,
    operationId: string,
    change: { by: string; release: boolean },
  ): Promise<ComparisonView> {
    const { report } = await this.succeeded(tenant, operationId);
    const now = this.deps.clock();
    const stored = await getDifferenceStorage(this.storage, tenant, operationId);
    const expired = stored && expiredAt(stored, now);
    if (expired !== undefined) throw differencesExpired(report.kind, expired);
    const expiry = change.release
      ? { expiresAt: now + this.deps.limits.ttlMs, keptBy: null }
      : { expiresAt: null, keptBy: change.by };
    if (!(await setDifferenceExpiry(this.storage, tenant, operationId, expiry))) {
      throw failedPrecondition(`comparison ${operationId} stored no differences to keep`);
    }
    const view = await this.view(tenant, operationId);
    if (!view) throw notFound(`comparison ${operationId} does not exist`);
    return view;
  }

  /**
   * One keyset page of a succeeded comparison's stored differences, in byte order of key; the
   * values only `withValues` (the caller's role allows reading them). FailedPrecondition once
   * they expired.
   */
  async listDifferences(
    tenant: string,
    operationId: string,
    page: {
      pageSize: number;
      pageToken: string;
      changes: readonly DifferenceChange[];
      withValues: boolean;
    },
  ): Promise<DifferencePage> {
    const limit = resolvePageSize(page.pageSize);
    const afterKey = decodeKeyToken(page.pageToken, () => true);
    const { report } = await this.succeeded(tenant, operationId);
    const stored = await getDifferenceStorage(this.storage, tenant, operationId);
    const expired = stored && expiredAt(stored, this.deps.clock());
    if (expired !== undefined) throw differencesExpired(report.kind, expired);
    const rows = await listDifferences(this.storage, tenant, operationId, {
      afterKey,
      limit: limit + 1,
      changes: page.changes,
      withValues: page.withValues,
    });
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const { added, changed, removed } = report.counts;
    const totalCount = added + changed + removed;
    return {
      differences: shown,
      nextPageToken: rows.length > limit && last ? encodeKeyToken(last.key) : '',
      // A comparison made before preview storage has no record: it stored every difference.
      truncated: stored?.truncated ?? false,
      storedCount: stored?.storedCount ?? totalCount,
      totalCount,
    };
  }

  /** Deletes the differences of comparisons whose operation the runner has purged. */
  prune(tenant: string): Promise<void> {
    return pruneOrphanDifferences(this.storage, tenant);
  }

  /** The record and report of a comparison that succeeded: NotFound or FailedPrecondition else. */
  private async succeeded(tenant: string, operationId: string) {
    if (!operationId) throw invalidArgument('operation_id', 'is required');
    const op = await this.runner.get(tenant, operationId, COMPARISON_KINDS);
    if (!op) throw notFound(`comparison ${operationId} does not exist`);
    if (op.state !== 'SUCCEEDED') {
      throw failedPrecondition(
        `comparison ${operationId} ${STATE_WORDS[op.state] ?? 'has not finished'}; ` +
          'only one that succeeded can be read',
      );
    }
    return { op, report: op.result as ComparisonReport };
  }

  private async catalogued(tenant: string, backupId: string, field: string) {
    const row = await getBackupRow(this.storage, tenant, backupId);
    if (!row) throw notFound(`${field}: backup ${backupId} does not exist`);
    return JSON.parse(row.manifestJson) as BackupManifestDoc;
  }

  /** Queues a comparison after its checks, once the tenant has room to store its differences. */
  private start(who: Starter, start: TrackedStart, checks: () => Promise<void>) {
    return startTracked(this.runner, who, start, async () => {
      await checks();
      await ensureTenantRoom(this.storage, who.tenant, this.deps.limits, this.deps.clock());
    });
  }
}
