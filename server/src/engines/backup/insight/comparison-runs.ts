import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import {
  deleteDifferences,
  insertDifferences,
  pruneOrphanDifferences,
} from '../../../storage/backup/backup-comparison-store.js';
import type { Storage } from '../../../storage/database.js';
import {
  addStoredDifferences,
  deleteDifferenceStorage,
  openDifferenceStorage,
  setDifferenceExpiry,
} from '../../../storage/backup/difference-storage-store.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { invalidArgument } from '../../errors.js';
import type { OperationContext } from '../../operations/index.js';
import type { ArtifactStore } from '../artifacts/index.js';
import {
  chainFromCatalog,
  chainFromManifests,
  type ManifestChain,
} from '../restore/chain-source.js';
import { narrowest } from '../restore/restore-service.js';
import { ChainStateCursor } from './chain-cursor.js';
import { compareSides, type ComparisonCounts } from './compare-sides.js';
import type { ComparisonReport, DiffRequest, PreviewRequest } from './comparison-types.js';
import { fitTenantRoom, runBudget, type DifferenceStorageLimits } from './difference-storage.js';
import { openTreeCursor } from './tree-cursor.js';

export interface ComparisonRunDeps {
  storage: Storage;
  artifacts: ArtifactStore;
  clock: () => number;
  pageSize: number;
  treePageSize: number;
  /** Preview storage: what a comparison may store, and for how long. */
  limits: DifferenceStorageLimits;
  afterPage?: (() => Promise<void>) | undefined;
  /** Compare every live entry even when only the changes since the chain can differ (tests). */
  readWholeTree?: boolean | undefined;
}

function entriesOf(chain: ManifestChain): number {
  return chain.reduce((n, m) => n + m.entryCount, 0);
}

function lastOf(chain: ManifestChain) {
  const last = chain[chain.length - 1];
  if (!last) throw new Error('empty chain');
  return last;
}

/**
 * Runs one comparison with its differences stored under the operation id: leftovers of purged
 * operations and of an earlier attempt go first, and a run that fails leaves none behind. Only
 * the first differences in key order are stored, within the comparison's row and byte caps and
 * the tenant's room (difference-storage.ts); the counts come from every key all the same.
 */
export async function withDifferences<T>(
  deps: ComparisonRunDeps,
  ctx: OperationContext,
  run: (store: (page: Parameters<typeof insertDifferences>[3]) => Promise<void>) => Promise<T>,
): Promise<T> {
  const { storage, limits } = deps;
  await pruneOrphanDifferences(storage, ctx.tenant);
  await deleteDifferences(storage, ctx.tenant, ctx.operationId);
  await deleteDifferenceStorage(storage, ctx.tenant, ctx.operationId);
  // The tenant's room is read again as the run starts: others may have filled it meanwhile.
  const budget = await runBudget(storage, ctx.tenant, limits, deps.clock());
  await openDifferenceStorage(storage, ctx.tenant, ctx.operationId, deps.clock() + limits.ttlMs);
  try {
    const result = await run(async (page) => {
      if (!budget.exhausted) {
        await fitTenantRoom(budget, storage, ctx.tenant, limits, deps.clock());
      }
      const taken = budget.take(page);
      await insertDifferences(storage, ctx.tenant, ctx.operationId, taken.kept);
      if (taken.kept.length > 0 || taken.truncated) {
        await addStoredDifferences(storage, ctx.tenant, ctx.operationId, {
          count: taken.kept.length,
          bytes: taken.bytes,
          truncated: taken.truncated,
        });
      }
      await deps.afterPage?.();
    });
    // The expiry runs from the end of the run, so a long run's differences get their full time.
    await setDifferenceExpiry(storage, ctx.tenant, ctx.operationId, {
      expiresAt: deps.clock() + limits.ttlMs,
      keptBy: null,
    });
    return result;
  } catch (error) {
    await deleteDifferences(storage, ctx.tenant, ctx.operationId).catch(() => undefined);
    await deleteDifferenceStorage(storage, ctx.tenant, ctx.operationId).catch(() => undefined);
    throw error;
  }
}

export function progressOf(ctx: OperationContext, total: number, read: () => number) {
  return (counts: ComparisonCounts) => {
    const differences = counts.added + counts.changed + counts.removed;
    ctx.progress({
      done: read(),
      total,
      unit: 'entries',
      message: `compared ${differences + counts.unchanged} keys, ${differences} differ`,
    });
  };
}

/**
 * The sequence up to which the live tree still holds exactly what the chain restores, or
 * undefined when the tree is not the one the chain was captured from. Within one physical tree
 * every write (put, delete as a tombstone, schema rewrite) takes a new, higher sequence and
 * nothing else changes an entry (a restore fills a fresh physical tree and swaps it in): the
 * invariant incremental backups already rest on. So every live entry with a sequence up to the
 * chain's last is the chain's own, and only the entries written after it can differ.
 */
function capturedUpTo(
  chain: ManifestChain,
  tree: { physicalTreeId: string; lastSequence: number } | undefined,
): number | undefined {
  if (!tree || !chain.every((m) => m.physicalTreeId === tree.physicalTreeId)) return undefined;
  const upTo = lastOf(chain).toSequence;
  return upTo <= tree.lastSequence ? upTo : undefined;
}

/**
 * A restore preview: the live tree (read in one snapshot, so its sequence high-water mark names
 * exactly the state compared) against what restoring the chain would leave under the restore's
 * prefix. Scoping, target and chain follow RestoreService.restore, so the preview is what that
 * restore would do if the tree did not change in between.
 */
export async function runPreview(
  deps: ComparisonRunDeps,
  ctx: OperationContext<PreviewRequest>,
): Promise<ComparisonReport> {
  const { request, tenant, signal } = ctx;
  const chain = request.cold
    ? await chainFromManifests(deps.artifacts, tenant, request.backupId)
    : await chainFromCatalog(deps.storage, tenant, request.backupId);
  const target = lastOf(chain);
  const treeName = request.targetTreeId || target.treeName;
  const prefix = narrowest(request.scope?.keyPrefix ?? '', target.keyPrefix ?? '');
  if (prefix === null) throw invalidArgument('scope.key_prefix', 'lies outside the backup');
  const total = entriesOf(chain);
  return withDifferences(deps, ctx, (store) =>
    withReadSnapshot(deps.storage, async (snapshot) => {
      const tree = await resolveTree(snapshot, tenant, treeName);
      const physicalTreeId = tree?.physicalTreeId ?? null;
      const changedAfter = deps.readWholeTree ? undefined : capturedUpTo(chain, tree);
      const live = await openTreeCursor(
        snapshot,
        { physicalTreeId, prefix, changedAfter },
        deps.treePageSize,
        signal,
      );
      let restored: ChainStateCursor;
      try {
        restored = await ChainStateCursor.open(deps.artifacts, tenant, chain, prefix, signal);
      } catch (error) {
        await live.close();
        throw error;
      }
      try {
        const counts = await compareSides(
          live,
          restored,
          {
            tenant,
            signal,
            pageSize: deps.pageSize,
            onDifferences: store,
            onProgress: progressOf(ctx, total, () => restored.recordsRead),
          },
          changedAfter === undefined ? 'whole' : 'changes',
        );
        return {
          operationId: ctx.operationId,
          kind: 'RESTORE_PREVIEW',
          treeId: treeName,
          keyPrefix: prefix,
          fromChain: [],
          toChain: chain.map((m) => m.backupId),
          counts,
          physicalTreeId,
          treeSequence: tree?.lastSequence ?? 0,
          comparedAt: deps.clock(),
        };
      } finally {
        await restored.close();
        await live.close();
      }
    }),
  );
}

/**
 * A backup diff: the state each chain would restore, compared key by key from the artifacts
 * alone. Both chains are read through the restore's checksum-verifying reader, so a damaged
 * artifact fails the diff with DataLoss.
 */
export async function runDiff(
  deps: ComparisonRunDeps,
  ctx: OperationContext<DiffRequest>,
): Promise<ComparisonReport> {
  const { request, tenant, signal } = ctx;
  const fromChain = await chainFromCatalog(deps.storage, tenant, request.fromBackupId);
  const toChain = await chainFromCatalog(deps.storage, tenant, request.toBackupId);
  const from = lastOf(fromChain);
  const to = lastOf(toChain);
  const shared = narrowest(from.keyPrefix ?? '', to.keyPrefix ?? '');
  const prefix = shared === null ? null : narrowest(request.scope?.keyPrefix ?? '', shared);
  if (prefix === null) throw invalidArgument('scope.key_prefix', 'lies outside the backups');
  const total = entriesOf(fromChain) + entriesOf(toChain);
  return withDifferences(deps, ctx, async (store) => {
    const before = await ChainStateCursor.open(deps.artifacts, tenant, fromChain, prefix, signal);
    let after: ChainStateCursor | undefined;
    try {
      after = await ChainStateCursor.open(deps.artifacts, tenant, toChain, prefix, signal);
      const read = () => before.recordsRead + (after?.recordsRead ?? 0);
      const counts = await compareSides(before, after, {
        tenant,
        signal,
        pageSize: deps.pageSize,
        onDifferences: store,
        onProgress: progressOf(ctx, total, read),
      });
      return {
        operationId: ctx.operationId,
        kind: 'BACKUP_DIFF',
        treeId: to.treeName,
        keyPrefix: prefix,
        fromChain: fromChain.map((m) => m.backupId),
        toChain: toChain.map((m) => m.backupId),
        counts,
        physicalTreeId: null,
        treeSequence: 0,
        comparedAt: deps.clock(),
      };
    } finally {
      await before.close();
      await after?.close();
    }
  });
}
