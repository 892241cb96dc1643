import {
  clearSchedule,
  getScope,
  setSchedule,
  type ScopeRow,
} from '../../../storage/backup/backup-scope-store.js';
import { getBackupRow, latestBackupOfTree } from '../../../storage/backup/backup-store.js';
import type { Storage } from '../../../storage/database.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { notFound } from '../../errors.js';
import type { ScopeInput } from '../backup-types.js';
import { validateInterval, validateScope } from '../validation.js';
import { firstRunAfter } from './next-runs.js';

export type RunOutcome = 'NONE' | 'SUCCEEDED' | 'FAILED' | 'SKIPPED' | 'RUNNING';

/** A scope's status as GetScopeStatus reports it. */
export interface ScopeStatus {
  found: boolean;
  treeId: string;
  keyPrefix: string;
  fullScheduleRegistered: boolean;
  incrementalScheduleRegistered: boolean;
  lastFullRunAt: number | null;
  lastFullSuccessAt: number | null;
  lastIncrementalRunAt: number | null;
  lastIncrementalSuccessAt: number | null;
  lastRunOutcome: RunOutcome;
  /** Backups in the chain of the scope's newest backup (full = 1; none = 0). */
  chainDepth: number;
  fullIntervalMs: number | null;
  incrementalIntervalMs: number | null;
}

/**
 * Registers, cancels and reports recurring captures of a scope (spec 000, Behaviour rules 1–2).
 * A scope is the whole selector, tree and key prefix: two prefixes of one tree are two schedules,
 * each with its own cadence and run status, and CancelSchedule removes only its own.
 */
export class ScheduleService {
  constructor(
    private readonly storage: Storage,
    private readonly minIntervalMs: number,
    private readonly clock: () => number,
  ) {}

  /**
   * Registers a schedule of the scope (tree + key prefix), clamped up to the scheduler minimum;
   * returns the effective interval. A tree that does not exist is NotFound, as a capture of it
   * is: a schedule could only skip every run, and its status would read "absent".
   */
  async schedule(
    tenant: string,
    scope: ScopeInput,
    incremental: boolean,
    intervalMs: number | undefined,
  ): Promise<number> {
    const valid = validateScope(scope);
    const effective = Math.max(Math.ceil(validateInterval(intervalMs)), this.minIntervalMs);
    if (!(await resolveTree(this.storage, tenant, valid.treeId))) {
      throw notFound(`tree ${valid.treeId} does not exist; write to it before scheduling backups`);
    }
    const now = this.clock();
    // An anchored scope (schedules overview) starts the cadence at its next anchored slot.
    const anchor = (await getScope(this.storage, scopeKey(tenant, valid)))?.anchor ?? null;
    await setSchedule(this.storage, {
      ...scopeKey(tenant, valid),
      kind: incremental ? 'incremental' : 'full',
      intervalMs: effective,
      firstRunAt: firstRunAfter(now, {
        intervalMs: effective,
        anchor,
        minIntervalMs: this.minIntervalMs,
      }),
      now,
    });
    return effective;
  }

  /** Removes the scope's own schedule of one kind; idempotent (spec 000, Behaviour rule 2). */
  async cancel(tenant: string, scope: ScopeInput, incremental: boolean): Promise<void> {
    const valid = validateScope(scope);
    await clearSchedule(this.storage, {
      ...scopeKey(tenant, valid),
      kind: incremental ? 'incremental' : 'full',
      now: this.clock(),
    });
  }

  /**
   * The scope's status (spec 000, rule 3: found false when the target is absent). A schedule
   * registered before ScheduleBackup refused absent trees keeps its scope visible, so an
   * operator can still see and cancel it.
   */
  async status(tenant: string, scope: ScopeInput): Promise<ScopeStatus> {
    const valid = validateScope(scope);
    const tree = await resolveTree(this.storage, tenant, valid.treeId);
    const row: ScopeRow | undefined = await getScope(this.storage, scopeKey(tenant, valid));
    const fullScheduleRegistered = row?.fullIntervalMs != null;
    const incrementalScheduleRegistered = row?.incrementalIntervalMs != null;
    const status: ScopeStatus = {
      found: tree !== undefined || fullScheduleRegistered || incrementalScheduleRegistered,
      treeId: valid.treeId,
      keyPrefix: valid.keyPrefix,
      fullScheduleRegistered,
      incrementalScheduleRegistered,
      lastFullRunAt: row?.lastFullRunAt ?? null,
      lastFullSuccessAt: row?.lastFullSuccessAt ?? null,
      lastIncrementalRunAt: row?.lastIncrementalRunAt ?? null,
      lastIncrementalSuccessAt: row?.lastIncrementalSuccessAt ?? null,
      lastRunOutcome: (row?.lastOutcome ?? 'NONE') as RunOutcome,
      chainDepth: 0,
      fullIntervalMs: row?.fullIntervalMs ?? null,
      incrementalIntervalMs: row?.incrementalIntervalMs ?? null,
    };
    if (!tree) return status;
    status.chainDepth = await chainDepthOf(this.storage, tenant, {
      treeId: valid.treeId,
      keyPrefix: valid.keyPrefix,
      physicalTreeId: tree.physicalTreeId,
    });
    return status;
  }
}

/**
 * Backups in the chain of the scope's own newest backup on the tree's current physical tree
 * (backups of another prefix are not its chain): full = 1, none = 0.
 */
export async function chainDepthOf(
  storage: Storage,
  tenant: string,
  scope: { treeId: string; keyPrefix: string; physicalTreeId: string },
): Promise<number> {
  let depth = 0;
  let current = await latestBackupOfTree(storage, tenant, scope.treeId, {
    physicalTreeId: scope.physicalTreeId,
    keyPrefix: scope.keyPrefix === '' ? null : scope.keyPrefix,
  });
  while (current && depth < 10_000) {
    depth += 1;
    current = current.baseBackupId
      ? await getBackupRow(storage, tenant, current.baseBackupId)
      : undefined;
  }
  return depth;
}

function scopeKey(tenant: string, scope: Required<ScopeInput>) {
  return { tenant, treeName: scope.treeId, keyPrefix: scope.keyPrefix };
}
