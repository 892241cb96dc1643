import type { Storage } from '../../storage/database.js';
import { compareAndSetWriteLock } from '../../storage/physical-tree-store.js';
import { ensureTree } from '../../storage/tree-store.js';
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
}

function captureContext(ctx: OperationContext): CaptureContext {
  return {
    tenant: ctx.tenant,
    operationId: ctx.operationId,
    createdBy: ctx.createdBy,
    signal: ctx.signal,
    progress: (done, message) => ctx.progress({ done, unit: 'entries', message }),
  };
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
 * Registers the eight backup kinds on the runner. None is resumable: each either finishes or
 * leaves nothing visible (a capture deletes its files, a restore drops its fresh tree), so an
 * interrupted run simply ends FAILED and can be started again.
 */
export function registerBackupKinds(runner: OperationRunner, deps: BackupKindDeps): void {
  const { storage, artifacts, captures, restores, clock } = deps;
  runner.register<CaptureRequest, unknown>('BACKUP', {
    resumable: false,
    run: (ctx) => captures.capture(captureContext(ctx), ctx.request, false),
  });
  runner.register<CaptureRequest, unknown>('INCREMENTAL_BACKUP', {
    resumable: false,
    run: (ctx) => captures.capture(captureContext(ctx), ctx.request, true),
  });
  runner.register<SetCaptureRequest, unknown>('BACKUP_SET', {
    resumable: false,
    run: (ctx) => captures.captureSet(captureContext(ctx), ctx.request),
  });
  runner.register<RestoreRequest, unknown>('RESTORE', {
    resumable: false,
    async run(ctx) {
      const earlier = await restores.previous(ctx.tenant, ctx.request.operationId);
      if (earlier) return earlier;
      const chain = await chainFromCatalog(storage, ctx.tenant, ctx.request.backupId);
      return restores.restore(restoreContext(ctx, null), ctx.request, chain);
    },
  });
  runner.register<RestoreRequest, unknown>('COLD_RESTORE', {
    resumable: false,
    async run(ctx) {
      const earlier = await restores.previous(ctx.tenant, ctx.request.operationId);
      if (earlier) return earlier;
      // The chain comes from the manifests alone: this works with the catalog gone.
      const chain = await chainFromManifests(artifacts, ctx.tenant, ctx.request.backupId);
      const treeName = ctx.request.targetTreeId || (chain[chain.length - 1]?.treeName ?? '');
      await ensureTree(storage, ctx.tenant, treeName, clock());
      const lock = { tenant: ctx.tenant, treeName };
      // Writes to the target fail FailedPrecondition while this lock is held (DESIGN.md §3).
      if (
        !(await compareAndSetWriteLock(storage, { ...lock, expected: null, next: ctx.operationId }))
      ) {
        throw failedPrecondition(`tree ${treeName} is locked by another operation`);
      }
      try {
        return await restores.restore(restoreContext(ctx, ctx.operationId), ctx.request, chain);
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
