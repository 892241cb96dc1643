import { latestBackupOfTree } from '../../../storage/backup-store.js';
import { getScope, setSchedule, type ScopeRow } from '../../../storage/backup-scope-store.js';
import type { Storage } from '../../../storage/database.js';
import { getBackupRow } from '../../../storage/backup-store.js';
import { resolveTree } from '../../../storage/tree-store.js';
import type { ScopeInput } from '../backup-types.js';
import { validateInterval, validateScope } from '../validation.js';

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
  /** Backups in the chain of the tree's newest backup (full = 1; none = 0). */
  chainDepth: number;
  fullIntervalMs: number | null;
  incrementalIntervalMs: number | null;
}

/** Registers, cancels and reports recurring captures of a scope (spec 000, Behaviour rules 1–2). */
export class ScheduleService {
  constructor(
    private readonly storage: Storage,
    private readonly minIntervalMs: number,
    private readonly clock: () => number,
  ) {}

  /** Registers a schedule, clamped up to the scheduler minimum; returns the effective interval. */
  async schedule(
    tenant: string,
    scope: ScopeInput,
    incremental: boolean,
    intervalMs: number | undefined,
  ): Promise<number> {
    const valid = validateScope(scope);
    const effective = Math.max(Math.ceil(validateInterval(intervalMs)), this.minIntervalMs);
    await setSchedule(this.storage, {
      tenant,
      treeName: valid.treeId,
      kind: incremental ? 'incremental' : 'full',
      intervalMs: effective,
      keyPrefix: valid.keyPrefix === '' ? null : valid.keyPrefix,
      now: this.clock(),
    });
    return effective;
  }

  /** Removes a schedule; idempotent (spec 000, Behaviour rule 2). */
  async cancel(tenant: string, scope: ScopeInput, incremental: boolean): Promise<void> {
    const valid = validateScope(scope);
    if (!(await getScope(this.storage, tenant, valid.treeId))) return;
    await setSchedule(this.storage, {
      tenant,
      treeName: valid.treeId,
      kind: incremental ? 'incremental' : 'full',
      intervalMs: null,
      keyPrefix: null,
      now: this.clock(),
    });
  }

  /** The scope's status; found false when the tree does not exist (spec 000, rule 3). */
  async status(tenant: string, scope: ScopeInput): Promise<ScopeStatus> {
    const valid = validateScope(scope);
    const tree = await resolveTree(this.storage, tenant, valid.treeId);
    const row: ScopeRow | undefined = await getScope(this.storage, tenant, valid.treeId);
    const status: ScopeStatus = {
      found: tree !== undefined,
      treeId: valid.treeId,
      keyPrefix: valid.keyPrefix,
      fullScheduleRegistered: row?.fullIntervalMs != null,
      incrementalScheduleRegistered: row?.incrementalIntervalMs != null,
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
    let current = await latestBackupOfTree(this.storage, tenant, valid.treeId, {
      physicalTreeId: tree.physicalTreeId,
    });
    while (current && status.chainDepth < 10_000) {
      status.chainDepth += 1;
      current = current.baseBackupId
        ? await getBackupRow(this.storage, tenant, current.baseBackupId)
        : undefined;
    }
    return status;
  }
}
