import {
  claimDrillPlanRun,
  countDrillsStartedBy,
  deleteDrillPlan,
  getDrillPlan,
  listDrillPlans,
  listDueDrillPlans,
  recordDrillPlanRun,
  upsertDrillPlan,
  type DrillPlanChoice,
  type DrillPlanCursor,
  type DrillPlanKey,
  type StoredDrillPlan,
} from '../../../storage/backup/drills/drill-plan-store.js';
import { getDrillRows } from '../../../storage/backup/drills/restore-drill-store.js';
import type { Storage } from '../../../storage/database.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import type {
  OperationLogger,
  OperationRecord,
  OperationRunner,
  Starter,
} from '../../operations/index.js';
import type { ScopeInput } from '../backup-types.js';
import { firstRunAfter, runAfter, type Cadence } from '../schedules/next-runs.js';
import { validateAnchor } from '../schedules/schedule-overview.js';
import { validateScope } from '../validation.js';
import { pickBackup } from './drill-plan-pick.js';
import type { RestoreDrills } from './restore-drills.js';

export type {
  DrillPlanChoice,
  StoredDrillPlan,
} from '../../../storage/backup/drills/drill-plan-store.js';

const MAX_PER_SECOND = 10_000_000;
const MAX_NAME = 100;
/** A random draw reaches back at most a year. */
const MAX_WINDOW_MS = 366 * 86_400_000;

/** What SetRestoreDrillPlan sends. */
export interface DrillPlanInput {
  scope: ScopeInput | undefined;
  name: string;
  cadence: { intervalMs: number; timeOfDay: string; timeZone: string } | undefined;
  choice: DrillPlanChoice | undefined;
  windowMs: number;
  maxEntriesPerSecond: number;
  paused: boolean;
}

/** How a plan's last run went, as the view shows it. */
export type PlanRunOutcome = 'RUNNING' | 'PROVEN' | 'FAILED' | 'SKIPPED' | 'DID_NOT_FINISH';

export interface DrillPlanView extends StoredDrillPlan {
  lastRunView: {
    at: number;
    operationId: string | null;
    backupId: string;
    outcome: PlanRunOutcome;
    reason: string;
    startedBy: string;
  } | null;
}

/** The creator a planned run's drill carries, so its history names the plan. */
export function plannedStarter(name: string): string {
  return `drill-plan:${name}`;
}

/**
 * Restore drill plans (issue 36 bullet 3): named per scope, on demand or on a schedule's cadence
 * (interval, optional time-of-day anchor in a zone), each run drilling the newest backup, a
 * seeded random one within a window, or each new full once. Replicas claim due runs with a
 * compare-and-set on next_run_at (drill-plan-store.ts), so each planned run fires once.
 */
export class DrillPlans {
  private readonly clock: () => number;

  constructor(
    private readonly options: {
      storage: Storage;
      runner: Pick<OperationRunner, 'submit' | 'get'>;
      drills: RestoreDrills;
      minIntervalMs: number;
      clock?: (() => number) | undefined;
      logger?: OperationLogger | undefined;
    },
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** Creates or replaces a plan; a changed cadence (or a resumed plan) reruns from now. */
  async set(tenant: string, input: DrillPlanInput): Promise<DrillPlanView> {
    const { storage } = this.options;
    const scope = validateScope(input.scope);
    const name = validatePlanName(input.name);
    if (input.choice === undefined) {
      throw invalidArgument('choice', 'pick NEWEST, RANDOM_WITHIN_WINDOW or EACH_NEW_FULL');
    }
    const cadence = input.cadence && this.validateCadence(input.cadence);
    if (input.choice === 'RANDOM_WITHIN_WINDOW') {
      if (!Number.isFinite(input.windowMs) || input.windowMs <= 0) {
        throw invalidArgument('window', 'a random draw needs a window longer than zero');
      }
      if (input.windowMs > MAX_WINDOW_MS) throw invalidArgument('window', 'at most 366 days');
    }
    const perSecond = input.maxEntriesPerSecond;
    if (!Number.isInteger(perSecond) || perSecond < 0 || perSecond > MAX_PER_SECOND) {
      throw invalidArgument('max_entries_per_second', `an integer from 0 to ${MAX_PER_SECOND}`);
    }
    if (!(await resolveTree(storage, tenant, scope.treeId))) {
      throw notFound(`tree ${scope.treeId} does not exist; write to it before planning drills`);
    }
    const key = { tenant, treeName: scope.treeId, keyPrefix: scope.keyPrefix, name };
    const before = await getDrillPlan(storage, key);
    const now = this.clock();
    const settings = {
      intervalMs: cadence?.intervalMs ?? null,
      anchor: cadence?.anchor ?? null,
      choice: input.choice,
      windowMs: input.choice === 'RANDOM_WITHIN_WINDOW' ? input.windowMs : null,
      maxEntriesPerSecond: perSecond,
      paused: input.paused,
    };
    const cadenceChanged =
      !before ||
      before.intervalMs !== settings.intervalMs ||
      JSON.stringify(before.anchor) !== JSON.stringify(settings.anchor) ||
      before.paused !== settings.paused ||
      before.nextRunAt === null;
    const nextRunAt =
      !cadence || settings.paused ? null : cadenceChanged ? firstRunAfter(now, cadence) : undefined;
    await upsertDrillPlan(storage, { ...key, ...settings, nextRunAt, now });
    return this.get(tenant, { scope: input.scope, name });
  }

  async get(tenant: string, ref: { scope: ScopeInput | undefined; name: string }) {
    const key = this.keyOf(tenant, ref);
    const plan = await getDrillPlan(this.options.storage, key);
    if (!plan) throw notFound(`no drill plan ${key.name} on ${describeScope(key)}`);
    return this.viewOf(plan);
  }

  /** A tenant's plans, or one scope's, by tree, prefix and name (0 → 100, at most 1000). */
  async list(
    tenant: string,
    request: { scope?: ScopeInput | undefined; pageSize: number; pageToken: string },
  ): Promise<{ plans: DrillPlanView[]; nextPageToken: string }> {
    const { pageSize } = request;
    if (!Number.isInteger(pageSize) || pageSize < 0 || pageSize > 1000) {
      throw invalidArgument('page_size', 'must be between 0 and 1000');
    }
    const limit = pageSize === 0 ? 100 : pageSize;
    const scope = request.scope && validateScope(request.scope);
    const rows = await listDrillPlans(this.options.storage, tenant, {
      scope: scope && { treeName: scope.treeId, keyPrefix: scope.keyPrefix },
      after: decodeToken(request.pageToken),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      plans: await Promise.all(page.map((plan) => this.viewOf(plan))),
      nextPageToken: rows.length > limit && last ? encodeToken(last) : '',
    };
  }

  /** The scope's plans, for the schedules overview. */
  async ofScope(tenant: string, treeName: string, keyPrefix: string): Promise<StoredDrillPlan[]> {
    return listDrillPlans(this.options.storage, tenant, {
      scope: { treeName, keyPrefix },
      limit: 1000,
    });
  }

  /** Deletes the plan only: the drills it ran stay in the scope's history. */
  async delete(
    tenant: string,
    ref: { scope: ScopeInput | undefined; name: string },
  ): Promise<{ removed: string; drillsKept: number }> {
    const key = this.keyOf(tenant, ref);
    const { storage } = this.options;
    if (!(await deleteDrillPlan(storage, key))) {
      throw notFound(`no drill plan ${key.name} on ${describeScope(key)}`);
    }
    const drillsKept = await countDrillsStartedBy(storage, key, plannedStarter(key.name));
    const drills = drillsKept === 1 ? '1 drill' : `${drillsKept} drills`;
    return {
      removed: `drill plan ${key.name} of ${describeScope(key)}; the ${drills} it ran stay in the drill history`,
      drillsKept,
    };
  }

  /** Picks a backup as a planned run would and starts its drill now, as the caller. */
  async runNow(
    who: Starter,
    ref: { scope: ScopeInput | undefined; name: string },
  ): Promise<OperationRecord> {
    const key = this.keyOf(who.tenant, ref);
    const { storage } = this.options;
    const plan = await getDrillPlan(storage, key);
    if (!plan) throw notFound(`no drill plan ${key.name} on ${describeScope(key)}`);
    const at = this.clock();
    const pick = await pickBackup(storage, plan, at);
    if (!pick.backup) throw failedPrecondition(`nothing to drill: ${pick.reason}`);
    const op = await this.options.drills.start(who, {
      backupId: pick.backup.id,
      maxEntriesPerSecond: plan.maxEntriesPerSecond,
    });
    await recordDrillPlanRun(storage, key, {
      at,
      outcome: 'STARTED',
      reason: pick.reason,
      startedBy: who.createdBy,
      operationId: op.id,
      backup: { id: pick.backup.id, createdAt: pick.backup.createdAt },
    });
    return op;
  }

  /** One pass of the background: claims and fires every due plan of every tenant. */
  async tick(isStopped: () => boolean = () => false): Promise<void> {
    const { storage } = this.options;
    for (const due of await listDueDrillPlans(storage, this.clock(), 100)) {
      if (isStopped()) return;
      if (due.nextRunAt === null || due.intervalMs === null) continue;
      const now = this.clock();
      const next = runAfter(due.nextRunAt, now, this.cadenceOf(due.intervalMs, due.anchor));
      if (!(await claimDrillPlanRun(storage, { ...due, nextRunAt: due.nextRunAt }, next))) continue;
      try {
        await this.fire(due, now);
      } catch (err) {
        this.options.logger?.warn({ err, plan: due.name }, 'a planned restore drill did not start');
        await this.skip(due, now, 'the drill could not be started; the server log says why');
      }
    }
  }

  private async fire(plan: StoredDrillPlan, at: number): Promise<void> {
    const { storage, runner } = this.options;
    if (!(await resolveTree(storage, plan.tenant, plan.treeName))) {
      return this.skip(plan, at, `tree ${plan.treeName} does not exist`);
    }
    const previous = plan.lastRun?.operationId
      ? await runner.get(plan.tenant, plan.lastRun.operationId)
      : undefined;
    if (previous && (previous.state === 'QUEUED' || previous.state === 'RUNNING')) {
      return this.skip(plan, at, 'the previous drill of this plan was still running');
    }
    const pick = await pickBackup(storage, plan, at);
    if (!pick.backup) return this.skip(plan, at, pick.reason);
    const op = await runner.submit({
      tenant: plan.tenant,
      kind: 'RESTORE_DRILL',
      request: {
        backupId: pick.backup.id,
        ...(plan.maxEntriesPerSecond > 0 && { maxEntriesPerSecond: plan.maxEntriesPerSecond }),
      },
      targetId: pick.backup.id,
      createdBy: plannedStarter(plan.name),
      // Bounded by the plan's cadence, not by a caller: a tenant's cap never drops a run.
      uncapped: true,
    });
    await recordDrillPlanRun(storage, plan, {
      at,
      outcome: 'STARTED',
      reason: pick.reason,
      startedBy: plannedStarter(plan.name),
      operationId: op.id,
      backup: { id: pick.backup.id, createdAt: pick.backup.createdAt },
    });
  }

  private skip(plan: DrillPlanKey, at: number, reason: string): Promise<void> {
    return recordDrillPlanRun(this.options.storage, plan, {
      at,
      outcome: 'SKIPPED',
      reason,
      startedBy: plannedStarter(plan.name),
      operationId: null,
      backup: null,
    });
  }

  private async viewOf(plan: StoredDrillPlan): Promise<DrillPlanView> {
    const last = plan.lastRun;
    if (!last) return { ...plan, lastRunView: null };
    const base = {
      at: last.at,
      operationId: last.operationId,
      startedBy: last.startedBy,
      reason: last.reason,
    };
    if (last.outcome === 'SKIPPED' || last.operationId === null) {
      return { ...plan, lastRunView: { ...base, backupId: '', outcome: 'SKIPPED' } };
    }
    const backupId = plan.lastBackup?.id ?? '';
    const rows = await getDrillRows(this.options.storage, plan.tenant, last.operationId);
    if (rows.length > 0) {
      const failed = rows.find((r) => r.outcome === 'FAILED');
      const outcome = failed ? 'FAILED' : 'PROVEN';
      const found = failed ?? rows[0]!;
      return {
        ...plan,
        lastRunView: { ...base, backupId, outcome, reason: `${last.reason}; ${found.reason}` },
      };
    }
    const op = await this.options.runner.get(plan.tenant, last.operationId);
    const running = op && (op.state === 'QUEUED' || op.state === 'RUNNING');
    const reason = running
      ? last.reason
      : `${last.reason}; the drill ${op ? `ended ${op.state.toLowerCase()}` : 'is no longer known'}${op?.error ? `: ${op.error.message}` : ''}`;
    return {
      ...plan,
      lastRunView: { ...base, backupId, outcome: running ? 'RUNNING' : 'DID_NOT_FINISH', reason },
    };
  }

  private validateCadence(cadence: { intervalMs: number; timeOfDay: string; timeZone: string }) {
    if (!Number.isFinite(cadence.intervalMs) || cadence.intervalMs <= 0) {
      throw invalidArgument('cadence.interval', 'must be longer than zero');
    }
    const anchored = cadence.timeOfDay !== '' || cadence.timeZone !== '';
    if (anchored && (cadence.timeOfDay === '' || cadence.timeZone === '')) {
      throw invalidArgument('cadence', 'give both a time of day and a time zone, or neither');
    }
    const anchor = anchored
      ? validateAnchor({ timeOfDay: cadence.timeOfDay, timeZone: cadence.timeZone }, 'cadence')
      : null;
    return this.cadenceOf(Math.max(cadence.intervalMs, this.options.minIntervalMs), anchor);
  }

  private cadenceOf(intervalMs: number, anchor: Cadence['anchor']): Cadence {
    return { intervalMs, anchor, minIntervalMs: this.options.minIntervalMs };
  }

  private keyOf(tenant: string, ref: { scope: ScopeInput | undefined; name: string }) {
    const scope = validateScope(ref.scope);
    return {
      tenant,
      treeName: scope.treeId,
      keyPrefix: scope.keyPrefix,
      name: validatePlanName(ref.name),
    };
  }
}

function describeScope(scope: { treeName: string; keyPrefix: string }): string {
  return scope.keyPrefix === '' ? scope.treeName : `${scope.treeName} (prefix ${scope.keyPrefix})`;
}

/** A plan name: 1–100 characters, no control characters, no surrounding spaces. */
export function validatePlanName(name: string): string {
  if (name.trim() === '') throw invalidArgument('name', 'is required');
  if (name !== name.trim()) throw invalidArgument('name', 'has spaces around it');
  if (name.length > MAX_NAME)
    throw invalidArgument('name', `is longer than ${MAX_NAME} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw invalidArgument('name', 'holds a control character');
  return name;
}

function encodeToken(plan: DrillPlanCursor): string {
  return Buffer.from(JSON.stringify([plan.treeName, plan.keyPrefix, plan.name])).toString(
    'base64url',
  );
}

function decodeToken(token: string): DrillPlanCursor | null {
  if (token === '') return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      const [treeName, keyPrefix, name] = value as [string, string, string];
      return { treeName, keyPrefix, name };
    }
  } catch {
    // Falls through to the error below.
  }
  throw invalidArgument('page_token', 'is not a token this listing returned');
}
