import { randomUUID } from 'node:crypto';
import type { Storage } from '../../storage/database.js';
import { withTransaction } from '../../storage/data/tree-db.js';
import { channelsWithEvent } from '../../storage/notifications/channel-store.js';
import {
  readDamagedBackups,
  readDeadLetterPiles,
  readLateSchedules,
  readScheduledScopes,
  readScopeProofs,
} from '../../storage/notifications/condition-readings-store.js';
import {
  closeConditions,
  openCondition,
  recentFailedOperations,
  stuckOperations,
  writeOutboxEvent,
} from '../../storage/notifications/outbox-store.js';
import type { NotificationEventName } from './notification-events.js';

/** An alert the shipped rules (monitoring/store-alerts.yml) would fire now for a tenant. */
export interface ActiveAlert {
  alertName: string;
  severity: 'critical' | 'warning';
  summary: string;
  description: string;
  scope: string;
  operationId: string;
  since: number;
}

/** StoreBackupFailed looks back this far (increase(…[15m])). */
const FAILED_WINDOW_MS = 15 * 60_000;
/** StoreSchedulerLate's threshold (store_scheduler_last_lag_seconds > 300). */
const SCHEDULER_LATE_MS = 300_000;
/** StoreDeadLettersPiling's pile. */
const DEAD_LETTER_PILE = 100;
const CAPTURE_KINDS = ['BACKUP', 'INCREMENTAL_BACKUP', 'BACKUP_SET'];
/** StoreScopeNotProven's N: 7 days, as the rule says (STORE_DRILL_PROOF_MAX_AGE_DAYS). */
export const DEFAULT_PROOF_MAX_AGE_MS = 7 * 86_400_000;

/** Overdue: no successful backup within twice the cadence, counted from the schedule when none. */
function overdueSince(s: {
  cadenceMs: number;
  lastSuccessAt: number | null;
  scheduledSince: number;
}) {
  return (s.lastSuccessAt ?? s.scheduledSince) + 2 * s.cadenceMs;
}

/**
 * The conditions of the shipped alert rules, read from the database rather than from metrics:
 * ListActiveAlerts answers with them, and the periodic pass turns the scoped ones (overdue,
 * stuck, dead letters over a channel's threshold) into one event per episode.
 */
export class AlertConditions {
  constructor(
    private readonly storage: Storage,
    private readonly stuckAfterMs: number,
    private readonly onEvent: () => void = () => {},
    private readonly proofMaxAgeMs: number = DEFAULT_PROOF_MAX_AGE_MS,
  ) {}

  /** What would fire now for `tenant`, the most urgent first. */
  async active(tenant: string, now: number): Promise<ActiveAlert[]> {
    const alerts: ActiveAlert[] = [];
    const failed = await recentFailedOperations(
      this.storage,
      tenant,
      CAPTURE_KINDS,
      now - FAILED_WINDOW_MS,
    );
    const newest = failed[0];
    if (newest) {
      alerts.push({
        alertName: 'StoreBackupFailed',
        severity: 'warning',
        summary: `A backup of tenant ${tenant} failed`,
        description:
          `${failed.length} backup capture(s) failed in the last 15 minutes; the newest: ` +
          `${newest.error_message ?? 'failed'}. Read the error on the Operations page, fix its ` +
          'cause and run the capture again.',
        scope: newest.target_id ?? '',
        operationId: newest.id,
        since: Number(newest.finished_at),
      });
    }
    for (const s of await readScheduledScopes(this.storage, tenant)) {
      const since = overdueSince(s);
      if (since > now) continue;
      alerts.push({
        alertName: 'StoreBackupOverdue',
        severity: 'critical',
        summary: `No successful backup of ${s.treeName} (tenant ${tenant}) within twice its cadence`,
        description:
          `Scope ${s.treeName} is scheduled every ${Math.round(s.cadenceMs / 60_000)} min, but ` +
          (s.lastSuccessAt === null
            ? 'has no successful backup yet'
            : 'its newest successful backup is older than twice that') +
          '. Check its schedule and failed captures, fix the cause and capture it now.',
        scope: s.treeName,
        operationId: '',
        since,
      });
    }
    // The rule reads the lag of a due run once it started; here a due run that has not started
    // 5 minutes after it was due is already that late, so the dashboard says so sooner.
    const late = await readLateSchedules(this.storage, tenant, now - SCHEDULER_LATE_MS);
    for (const treeName of [...new Set(late.map((l) => l.treeName))]) {
      const first = late.find((l) => l.treeName === treeName)!;
      const minutes = Math.round((now - first.dueAt) / 60_000);
      alerts.push({
        alertName: 'StoreSchedulerLate',
        severity: 'warning',
        summary: `Scheduled ${first.kind} backup of ${treeName} (tenant ${tenant}) is ${minutes} min late`,
        description:
          `The ${first.kind} run of scope ${treeName} was due ${minutes} min ago and has not ` +
          'started. The scheduler is behind: look for replicas that are overloaded or down, and ' +
          'for long operations holding the scope. The alert clears when the run starts.',
        scope: treeName,
        operationId: '',
        since: first.dueAt + SCHEDULER_LATE_MS,
      });
    }
    const damaged = await readDamagedBackups(this.storage, tenant);
    for (const health of ['corrupt', 'missing'] as const) {
      const of = damaged.filter((b) =>
        health === 'missing'
          ? b.last_health_status === 'MISSING'
          : b.last_health_status !== 'MISSING',
      );
      const first = of[0];
      if (!first) continue;
      alerts.push({
        alertName: 'StoreBackupCorrupt',
        severity: 'critical',
        summary: `${of.length} backup(s) of tenant ${tenant} are ${health}`,
        description:
          'A health check found these backups damaged; they cannot be restored. Take a new full ' +
          'backup of each affected scope, then delete the broken backups.',
        scope: first.tree_name,
        operationId: '',
        since: Math.min(...of.map((b) => Number(b.health_damaged_since ?? now))),
      });
    }
    alerts.push(...(await this.unproven(tenant, now)));
    const stuck = await stuckOperations(this.storage, now - this.stuckAfterMs, tenant);
    for (const kind of [...new Set(stuck.map((o) => o.kind))]) {
      const ofKind = stuck.filter((o) => o.kind === kind);
      const first = ofKind[0]!;
      alerts.push({
        alertName: 'StoreOperationStuck',
        severity: 'warning',
        summary: `${ofKind.length} ${kind} operation(s) stuck`,
        description:
          `At least ${ofKind.length} running ${kind} operation(s) made no progress for longer ` +
          'than STORE_OPERATION_STUCK_AFTER_SECONDS. Read the log of the replica holding it, ' +
          'and cancel it.',
        scope: first.target_id ?? '',
        operationId: first.id,
        since: Number(first.updated_at) + this.stuckAfterMs,
      });
    }
    for (const pile of await readDeadLetterPiles(this.storage, DEAD_LETTER_PILE + 1, tenant)) {
      alerts.push({
        alertName: 'StoreDeadLettersPiling',
        severity: 'warning',
        summary: `${pile.pending} dead letters on tree ${pile.treeName} (tenant ${tenant})`,
        description:
          'Writes keep failing the tree’s schema policy. Read why the letters were refused, fix ' +
          'the writer or the policy, then replay or discard them.',
        scope: pile.treeName,
        operationId: '',
        since: now,
      });
    }
    const rank = (a: ActiveAlert) => (a.severity === 'critical' ? 0 : 1);
    return alerts.sort((a, b) => rank(a) - rank(b) || a.since - b.since);
  }

  /**
   * StoreScopeNotProven: a tree with backups whose newest PROVEN drill is older than N days, or
   * that was never proven while its oldest backup is older than N days.
   */
  private async unproven(tenant: string, now: number): Promise<ActiveAlert[]> {
    const days = Math.round(this.proofMaxAgeMs / 86_400_000);
    return (await readScopeProofs(this.storage, tenant)).flatMap((s) => {
      const since = (s.lastProvenAt ?? s.oldestBackupAt) + this.proofMaxAgeMs;
      if (since > now) return [];
      const age = Math.floor((now - (s.lastProvenAt ?? s.oldestBackupAt)) / 86_400_000);
      return [
        {
          alertName: 'StoreScopeNotProven',
          severity: 'warning' as const,
          summary: `Scope ${s.treeName} (tenant ${tenant}) not proven restorable within ${days} days`,
          description:
            (s.lastProvenAt === null
              ? `No restore drill ever proved a backup of ${s.treeName}, which has had backups for ${age} days. `
              : `The last restore drill that proved a backup of ${s.treeName} restorable was ${age} days ago. `) +
            'A backup that was never restored is a hope: run a drill of its newest backup, and ' +
            'if drills fail, read why in the drill history and fix the cause.',
          scope: s.treeName,
          operationId: '',
          since,
        },
      ];
    });
  }

  /**
   * One pass over every tenant: a condition that starts is one event (its episode row and the
   * event commit together, and the episode's key makes a second replica's pass a no-op); an
   * episode that ended is closed, so the next one is a new event.
   */
  async evaluate(now: number): Promise<number> {
    let written = 0;
    const open = new Set<string>();
    const raise = async (
      tenant: string,
      key: string,
      kind: NotificationEventName,
      fields: {
        scope: string;
        operationId: string;
        summary: string;
        payload: Record<string, unknown>;
      },
      onlyChannels?: readonly string[],
    ) => {
      open.add(`${tenant}\n${key}`);
      const eventId = `evt_${randomUUID()}`;
      const wrote = await withTransaction(this.storage, async (tx) => {
        if (!(await openCondition(tx, tenant, key, eventId, now))) return false;
        await writeOutboxEvent(
          tx,
          { eventId, tenant, kind, createdAt: now, ...fields },
          onlyChannels,
        );
        return true;
      });
      if (wrote) written += 1;
    };

    for (const s of await readScheduledScopes(this.storage)) {
      if (overdueSince(s) > now) continue;
      await raise(
        s.tenant,
        `overdue:${s.treeName}:${s.lastSuccessAt ?? 'none'}`,
        'BACKUP_OVERDUE',
        {
          scope: s.treeName,
          operationId: '',
          summary: `No successful backup of ${s.treeName} within twice its cadence`,
          payload: { cadenceMs: s.cadenceMs, lastSuccessAt: s.lastSuccessAt },
        },
      );
    }
    for (const op of await stuckOperations(this.storage, now - this.stuckAfterMs)) {
      await raise(op.tenant, `stuck:${op.id}`, 'OPERATION_STUCK', {
        scope: op.target_id ?? '',
        operationId: op.id,
        summary: `${op.kind} operation ${op.id} made no progress for ${Math.round(this.stuckAfterMs / 60_000)} min`,
        payload: { kind: op.kind, lastProgressAt: Number(op.updated_at) },
      });
    }
    const listeners = await channelsWithEvent(this.storage, 'DEAD_LETTERS_OVER_THRESHOLD');
    if (listeners.length > 0) {
      const lowest = Math.min(...listeners.map((c) => c.dead_letter_threshold));
      for (const pile of await readDeadLetterPiles(this.storage, lowest + 1)) {
        for (const c of listeners) {
          if (c.tenant !== pile.tenant || pile.pending <= c.dead_letter_threshold) continue;
          await raise(
            pile.tenant,
            `deadletters:${c.id}:${pile.treeName}`,
            'DEAD_LETTERS_OVER_THRESHOLD',
            {
              scope: pile.treeName,
              operationId: '',
              summary: `${pile.pending} dead letters pending on ${pile.treeName} (over ${c.dead_letter_threshold})`,
              payload: { pending: pile.pending, threshold: c.dead_letter_threshold },
            },
            [c.id],
          );
        }
      }
    }
    for (const prefix of ['overdue:', 'stuck:', 'deadletters:']) {
      await closeConditions(this.storage, prefix, open);
    }
    if (written > 0) this.onEvent();
    return written;
  }
}
