import type { Storage } from '../../storage/database.js';
import { compareAndSetWriteLock } from '../../storage/data/physical-tree-store.js';
import { ensureTree } from '../../storage/data/tree-store.js';
import { failedPrecondition } from '../errors.js';
import type { OperationContext, OperationRunner } from '../operations/index.js';
import type { ArtifactStore } from './artifacts/index.js';
import type { CaptureRequest, RestoreRequest, SetCaptureRequest } from './backup-types.js';
import type { CaptureContext, CaptureService } from './capture/capture-service.js';
import { checkBackupHealth } from './health/health-check.js';
import { rebuildCatalog } from './maintenance/rebuild.js';
import { scrubCatalog } from './maintenance/scrub.js';
import { chainFromCatalog, chainFromManifests } from './restore/chain-source.js';
import type { RestoreContext, RestoreService } from './restore/restore-service.js';

export interface BackupKindDeps {
  storage: Storage;
  artifacts: ArtifactStore;
  captures: CaptureService;
  restores: RestoreService;
  clock: () => number;
  /** Runs after a scheduled capture published its backup (retention of the scope). */
  afterScheduledCapture?:
    | ((tenant: string, scope: CaptureScopeKey, capture: ScheduledCaptureFacts) => Promise<void>)
    | undefined;
}

/** The scheduled capture that just published: its backup's name, and which schedule fired. */
export interface ScheduledCaptureFacts {
  name: string;
  incremental: boolean;
}

/** The scope a capture wrote, as retention names it. */
export interface CaptureScopeKey {
  treeName: string;
  keyPrefix: string;
}

/** A capture run, followed by the scheduled-capture hook when the scheduler started it. */
function thenAfterSchedule<T>(
  deps: BackupKindDeps,
  ctx: OperationContext<CaptureRequest>,
  incremental: boolean,
  run: () => Promise<T>,
): Promise<T> {
  return run().then(async (result) => {
    if (ctx.createdBy === 'scheduler' && deps.afterScheduledCapture) {
      const scope = {
        treeName: ctx.request.scope.treeId,
        keyPrefix: ctx.request.scope.keyPrefix ?? '',
      };
      await deps.afterScheduledCapture(ctx.tenant, scope, { name: ctx.request.name, incremental });
    }
    return result;
  });
}

function captureContext(ctx: OperationContext): CaptureContext {
  return {
    tenant: ctx.tenant,
    operationId: ctx.operationId,
    createdBy: ctx.createdBy,
    signal: ctx.signal,
    progress: (done, total, message) => ctx.progress({ done, total, unit: 'entries', message }),
  };
}

/** The request with its restore idempotency key defaulting to the tracked operation's id. */
function withRestoreKey(ctx: OperationContext<RestoreRequest>): RestoreRequest {
  return { ...ctx.request, operationId: ctx.request.operationId || ctx.operationId };
}

function restoreContext(ctx: OperationContext, lockedBy: string | null): RestoreContext {
  return {
    tenant: ctx.tenant,
    signal: ctx.signal,
    lockedBy,
    progress: (done, total, message) => ctx.progress({ done, total, unit: 'entries', message }),
  };
}

/**
 * Registers the eight backup kinds on the runner. Captures and maintenance are not resumable:
 * each either finishes or leaves nothing visible (a capture deletes its files; scrub prunes what
 * a killed one left), so an interrupted run ends FAILED and can be started again — unless a
 * capture had already published its backups (its last durable step): recovery then finds them
 * by operation id and the operation ends SUCCEEDED with them as its result. Restores are
 * resumable: a process can die after the install transaction committed but before the operation
 * was marked done, so an interrupted restore runs again under its operation id as idempotency key
 * and either finds its installed result or restores from the start (the fresh tree of the dead
 * attempt is left to scrub).
 */
export function registerBackupKinds(runner: OperationRunner, deps: BackupKindDeps): void {
  const { storage, artifacts, captures, restores, clock } = deps;
  runner.register<CaptureRequest, unknown>('BACKUP', {
    resumable: false,
    run: (ctx) =>
      thenAfterSchedule(deps, ctx, false, () =>
        captures.capture(captureContext(ctx), ctx.request, false),
      ),
    completedBeforeInterruption: (op) => captures.publishedCapture(op.tenant, op.id),
  });
  runner.register<CaptureRequest, unknown>('INCREMENTAL_BACKUP', {
    resumable: false,
    run: (ctx) =>
      thenAfterSchedule(deps, ctx, true, () =>
        captures.capture(captureContext(ctx), ctx.request, true),
      ),
    completedBeforeInterruption: (op) => captures.publishedCapture(op.tenant, op.id),
  });
  runner.register<SetCaptureRequest, unknown>('BACKUP_SET', {
    resumable: false,
    run: (ctx) => captures.captureSet(captureContext(ctx), ctx.request),
    completedBeforeInterruption: (op) => captures.publishedSet(op.tenant, op.id, op.request),
  });
  runner.register<RestoreRequest, unknown>('RESTORE', {
    resumable: true,
    async run(ctx) {
      const request = withRestoreKey(ctx);
      const earlier = await restores.previous(ctx.tenant, request.operationId);
      if (earlier) return earlier;
      const chain = await chainFromCatalog(storage, ctx.tenant, request.backupId);
      return restores.restore(restoreContext(ctx, null), request, chain);
    },
  });
  runner.register<RestoreRequest, unknown>('COLD_RESTORE', {
    resumable: true,
    async run(ctx) {
      const request = withRestoreKey(ctx);
      const earlier = await restores.previous(ctx.tenant, request.operationId);
      if (earlier) return earlier;
      // The chain comes from the manifests alone: this works with the catalog gone.
      const chain = await chainFromManifests(artifacts, ctx.tenant, request.backupId);
      const treeName = request.targetTreeId || (chain[chain.length - 1]?.treeName ?? '');
      await ensureTree(storage, ctx.tenant, treeName, clock());
      const lock = { tenant: ctx.tenant, treeName };
      const mine = { ...lock, expected: ctx.operationId, next: ctx.operationId };
      // Writes to the target fail FailedPrecondition while this lock is held (DESIGN.md §3). A
      // resumed attempt finds the lock its dead predecessor took, and carries on under it.
      if (
        !(await compareAndSetWriteLock(storage, {
          ...lock,
          expected: null,
          next: ctx.operationId,
        })) &&
        !(await compareAndSetWriteLock(storage, mine))
      ) {
        throw failedPrecondition(`tree ${treeName} is locked by another operation`);
      }
      try {
        return await restores.restore(restoreContext(ctx, ctx.operationId), request, chain);
      } finally {
        await compareAndSetWriteLock(storage, { ...lock, expected: ctx.operationId, next: null });
      }
    },
  });
  runner.register<{ backupId: string }, unknown>('BACKUP_HEALTH_CHECK', {
    resumable: false,
    run: (ctx) =>
      checkBackupHealth(storage, artifacts, ctx.tenant, ctx.request.backupId, {
        now: clock,
        signal: ctx.signal,
        onArtifact: (n) => ctx.progress({ done: n, unit: 'artifacts' }),
      }),
  });
  runner.register<Record<string, never>, unknown>('CATALOG_REBUILD', {
    resumable: false,
    run: (ctx) =>
      rebuildCatalog(storage, artifacts, ctx.tenant, {
        signal: ctx.signal,
        onProgress: (n) => ctx.progress({ done: n, unit: 'manifests' }),
      }),
  });
  runner.register<{ pruneOrphans: boolean }, unknown>('CATALOG_SCRUB', {
    resumable: false,
    run: (ctx) =>
      scrubCatalog(storage, artifacts, ctx.tenant, {
        prune: ctx.request.pruneOrphans,
        now: clock(),
        signal: ctx.signal,
        onProgress: (n) => ctx.progress({ done: n, unit: 'rows' }),
      }),
  });
}
