import {
  claimHealthCheck,
  listDueHealthChecks,
} from '../../../storage/backup/backup-health-store.js';
import {
  activeCapturePrefixes,
  claimScheduledRun,
  listDueSchedules,
  recordScopeRun,
  type DueSchedule,
} from '../../../storage/backup/backup-scope-store.js';
import { latestBackupOfTree } from '../../../storage/backup/backup-store.js';
import type { Storage } from '../../../storage/database.js';
import { scopeChangedSince } from '../../../storage/backup/schedule-settings-store.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import type { OperationLogger, OperationRunner } from '../../operations/index.js';
import type { CaptureRequest } from '../backup-types.js';
import { DEFAULT_NAME_TEMPLATE, renderBackupName } from './name-template.js';
import { runAfter } from './next-runs.js';

export interface BackgroundOptions {
  storage: Storage;
  runner: Pick<OperationRunner, 'submit'>;
  clock: () => number;
  tickMs: number;
  healthMonitoring: boolean;
  /** The scheduler minimum: an anchored cadence never runs twice within it. */
  minIntervalMs?: number | undefined;
  logger?: OperationLogger | undefined;
  /** Told of each due run the scheduler started, with how late it started (metrics). */
  onScheduledRun?: ((run: StartedScheduledRun) => void) | undefined;
  /** Restore drill plans (drills/drill-plans.ts): their due runs fire after the schedules'. */
  drillPlans?: { tick(isStopped: () => boolean): Promise<void> } | undefined;
}

/** A due schedule run this replica claimed and submitted. */
export interface StartedScheduledRun {
  tenant: string;
  treeName: string;
  keyPrefix: string;
  kind: 'full' | 'incremental';
  /** From the time it was due to the time it was submitted. */
  lagMs: number;
}

/**
 * The scheduler and the health monitor: one timer that, each tick, claims due schedule runs and
 * due health checks with a compare-and-set in the database (so among replicas exactly one fires
 * each) and hands them to the operations runner (created_by 'scheduler' / 'health-monitor').
 */
export class BackupBackground {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly options: BackgroundOptions) {}

  /** Starts ticking. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** Stops ticking and waits for a tick in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((err: unknown) =>
          this.options.logger?.warn({ err }, 'backup background tick failed'),
        )
        .finally(() => this.schedule());
    }, this.options.tickMs);
    this.timer.unref();
  }

  /** One pass: fire due schedules, then due drill plans, then due health checks. */
  async tick(): Promise<void> {
    const { storage, clock } = this.options;
    for (const due of await listDueSchedules(storage, clock(), 100)) {
      if (this.stopped) return;
      const now = clock();
      const next = runAfter(due.nextRunAt, now, {
        intervalMs: due.intervalMs,
        anchor: due.settings.anchor,
        minIntervalMs: this.options.minIntervalMs ?? 0,
      });
      if (await claimScheduledRun(storage, due, next)) await this.fire(due, now);
    }
    // Stops early only once stop() was called after start(): a tick run by hand (tests, the
    // first pass) before start() fires every due plan.
    await this.options.drillPlans?.tick(() => this.stopped && this.timer !== undefined);
    if (!this.options.healthMonitoring) return;
    for (const due of await listDueHealthChecks(storage, clock(), 100)) {
      if (this.stopped) return;
      if (!(await claimHealthCheck(storage, due, clock()))) continue;
      await this.options.runner.submit({
        tenant: due.tenant,
        kind: 'BACKUP_HEALTH_CHECK',
        request: { backupId: due.backupId },
        targetId: due.backupId,
        createdBy: 'health-monitor',
        // Bounded by the backups' health-check interval, not by a caller: never refused.
        uncapped: true,
      });
    }
  }

  private async fire(due: DueSchedule, firedAt: number): Promise<void> {
    const { storage, clock, runner } = this.options;
    const skip = (reason: string) =>
      recordScopeRun(storage, {
        ...scopeOf(due),
        kind: due.kind,
        outcome: 'SKIPPED',
        now: clock(),
        reason,
      });
    const tree = await resolveTree(storage, due.tenant, due.treeName);
    // Nothing to back up yet: skip this run, say so.
    if (!tree) return skip(`tree ${due.treeName} does not exist`);
    // A scope's run waits only for a capture of that same scope: another prefix of the tree
    // is another schedule with its own cadence.
    if ((await activeCapturePrefixes(storage, due.tenant, due.treeName)).has(due.keyPrefix)) {
      return skip('the previous capture of this scope was still running');
    }
    if (due.kind === 'incremental' && !due.settings.captureUnchangedIncrementals) {
      // The base the capture would chain onto (capture-service.ts picks it the same way). With
      // nothing written in the scope since, the run is recorded instead of a 0 B backup.
      const base = await latestBackupOfTree(storage, due.tenant, due.treeName, {
        physicalTreeId: tree.physicalTreeId,
        keyPrefix: due.keyPrefix === '' ? null : due.keyPrefix,
      });
      if (
        base &&
        !(await scopeChangedSince(storage, tree.physicalTreeId, due.keyPrefix, base.toSequence))
      ) {
        return skip(`no change since ${base.name}`);
      }
    }
    const request: CaptureRequest = {
      name: renderBackupName(due.settings.nameTemplate ?? DEFAULT_NAME_TEMPLATE, {
        treeName: due.treeName,
        keyPrefix: due.keyPrefix,
        kind: due.kind,
        at: firedAt,
        timeZone: due.settings.anchor?.timeZone ?? 'UTC',
      }),
      scope: { treeId: due.treeName, ...(due.keyPrefix !== '' && { keyPrefix: due.keyPrefix }) },
      pageSize: 0,
      labels: { schedule: due.kind },
      ...(due.kind === 'incremental' && { baseBackupId: '' }),
    };
    await runner.submit({
      tenant: due.tenant,
      kind: due.kind === 'full' ? 'BACKUP' : 'INCREMENTAL_BACKUP',
      request,
      targetId: due.treeName,
      createdBy: 'scheduler',
      // Bounded by the scope's schedule, not by a caller: a tenant's cap never drops a run.
      uncapped: true,
    });
    try {
      this.options.onScheduledRun?.({
        ...scopeOf(due),
        kind: due.kind,
        lagMs: Math.max(0, clock() - due.nextRunAt),
      });
    } catch (err) {
      this.options.logger?.warn({ err }, 'counting a scheduled run failed');
    }
  }
}

function scopeOf(due: DueSchedule) {
  return { tenant: due.tenant, treeName: due.treeName, keyPrefix: due.keyPrefix };
}
