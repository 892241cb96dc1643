import {
  getScope,
  type ScheduleKind,
  type ScheduleSettings,
  type ScopeRow,
  type StoredAnchor,
} from '../../../storage/backup/backup-scope-store.js';
import type { Storage } from '../../../storage/database.js';
import {
  getRetentionRules,
  type StoredRetentionRules,
} from '../../../storage/backup/lifecycle/backup-lifecycle-store.js';
import {
  countProtectedOfScope,
  listScheduledScopes,
  setScheduleSettings,
  type ScopeCursor,
} from '../../../storage/backup/schedule-settings-store.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { listDrillPlans } from '../../../storage/backup/drills/drill-plan-store.js';
import { describeChoice } from '../drills/drill-plan-pick.js';
import { invalidArgument, notFound } from '../../errors.js';
import type { ScopeInput } from '../backup-types.js';
import { validateScope } from '../validation.js';
import { DEFAULT_NAME_TEMPLATE, renderBackupName, validateNameTemplate } from './name-template.js';
import { firstRunAfter, parseTimeOfDay, plannedRuns, type Cadence } from './next-runs.js';
import { chainDepthOf, type RunOutcome } from './schedule-service.js';
import { canonicalTimeZone, isKnownTimeZone } from './zoned-time.js';

/** How many planned runs the overview lists per scope. */
export const PLANNED_RUNS = 5;

export interface PlannedRun {
  at: number;
  kind: ScheduleKind;
  backupName: string;
}

/** One scope's schedules as the overview shows them. */
export interface ScheduleView {
  treeId: string;
  keyPrefix: string;
  full: { intervalMs: number; nextRunAt: number } | null;
  incremental: { intervalMs: number; nextRunAt: number } | null;
  anchor: StoredAnchor | null;
  nameTemplate: string;
  defaultNameTemplate: boolean;
  captureUnchangedIncrementals: boolean;
  nextRuns: PlannedRun[];
  lastRun: { at: number; kind: ScheduleKind; outcome: RunOutcome; reason: string } | null;
  chainDepth: number;
  /** The scope's retention rules in words; '' when it has none. */
  retentionRules: string;
  protectedCount: number;
  /** The scope's restore drill plans by name (issue 36 bullet 3). */
  drillPlans: ScheduledDrillPlanView[];
}

/** A restore drill plan as the overview names it. */
export interface ScheduledDrillPlanView {
  name: string;
  /** null: on demand or paused. */
  nextRunAt: number | null;
  paused: boolean;
  /** Which backup a run drills, in words. */
  choice: string;
}

/** What ConfigureScheduleExtras sends. */
export interface ScheduleExtrasInput {
  scope: ScopeInput | undefined;
  anchor: { timeOfDay: string; timeZone: string } | undefined;
  nameTemplate: string;
  captureUnchangedIncrementals: boolean;
}

/**
 * The schedules overview (backup lifecycle, not in the specs): every scheduled scope of a tenant
 * with its next runs, and the settings ScheduleBackup has no field for. ScheduleBackup,
 * CancelSchedule and GetScopeStatus keep their spec meaning.
 */
export class ScheduleOverview {
  constructor(
    private readonly storage: Storage,
    private readonly minIntervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * A page of the tenant's scheduled scopes; the token is the last scope of the page. With
   * `only`, that scope alone, also while none of its schedules is registered (a form reads it).
   */
  async list(
    tenant: string,
    pageSize: number,
    pageToken: string,
    only?: ScopeInput,
  ): Promise<{ schedules: ScheduleView[]; nextPageToken: string }> {
    if (!Number.isInteger(pageSize) || pageSize < 0 || pageSize > 1000) {
      throw invalidArgument('page_size', 'must be between 0 and 1000');
    }
    if (only) {
      const scope = validateScope(only);
      const row = await getScope(this.storage, {
        tenant,
        treeName: scope.treeId,
        keyPrefix: scope.keyPrefix,
      });
      return { schedules: row ? [await this.viewOf(row)] : [], nextPageToken: '' };
    }
    const limit = pageSize === 0 ? 100 : pageSize;
    const rows = await listScheduledScopes(this.storage, tenant, decodeToken(pageToken), limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      schedules: await Promise.all(page.map((row) => this.viewOf(row))),
      nextPageToken: rows.length > limit && last ? encodeToken(last) : '',
    };
  }

  /**
   * Replaces a scope's anchor, name template and unchanged-incremental setting. A changed anchor
   * moves the scope's registered schedules to their next anchored slot; the rest keep their
   * next run.
   */
  async configure(tenant: string, input: ScheduleExtrasInput): Promise<ScheduleView> {
    const scope = validateScope(input.scope);
    const settings: ScheduleSettings = {
      anchor: input.anchor ? validateAnchor(input.anchor) : null,
      nameTemplate: input.nameTemplate === '' ? null : validateNameTemplate(input.nameTemplate),
      captureUnchangedIncrementals: input.captureUnchangedIncrementals,
    };
    if (!(await resolveTree(this.storage, tenant, scope.treeId))) {
      throw notFound(`tree ${scope.treeId} does not exist; write to it before scheduling backups`);
    }
    const key = { tenant, treeName: scope.treeId, keyPrefix: scope.keyPrefix };
    const before = await getScope(this.storage, key);
    const now = this.clock();
    const anchorChanged =
      JSON.stringify(before?.anchor ?? null) !== JSON.stringify(settings.anchor);
    const rerun = (intervalMs: number | null | undefined) =>
      anchorChanged && intervalMs != null
        ? firstRunAfter(now, this.cadence(intervalMs, settings.anchor))
        : null;
    await setScheduleSettings(this.storage, {
      ...key,
      settings,
      fullNextRunAt: rerun(before?.fullIntervalMs),
      incrementalNextRunAt: rerun(before?.incrementalIntervalMs),
      now,
    });
    const after = await getScope(this.storage, key);
    if (!after) throw new Error('the scope row vanished after it was written');
    return this.viewOf(after);
  }

  private cadence(intervalMs: number, anchor: StoredAnchor | null): Cadence {
    return { intervalMs, anchor, minIntervalMs: this.minIntervalMs };
  }

  private async viewOf(row: ScopeRow): Promise<ScheduleView> {
    const template = row.nameTemplate ?? DEFAULT_NAME_TEMPLATE;
    const cadenceOf = (kind: ScheduleKind) => {
      const intervalMs = kind === 'full' ? row.fullIntervalMs : row.incrementalIntervalMs;
      const nextRunAt = kind === 'full' ? row.fullNextRunAt : row.incrementalNextRunAt;
      return intervalMs === null || nextRunAt === null ? null : { intervalMs, nextRunAt };
    };
    const full = cadenceOf('full');
    const incremental = cadenceOf('incremental');
    const planned: PlannedRun[] = [];
    for (const [kind, cadence] of [
      ['full', full],
      ['incremental', incremental],
    ] as const) {
      if (!cadence) continue;
      for (const at of plannedRuns(
        cadence.nextRunAt,
        PLANNED_RUNS,
        this.cadence(cadence.intervalMs, row.anchor),
      )) {
        const backupName = renderBackupName(template, {
          treeName: row.treeName,
          keyPrefix: row.keyPrefix,
          kind,
          at,
          timeZone: row.anchor?.timeZone ?? 'UTC',
        });
        planned.push({ at, kind, backupName });
      }
    }
    planned.sort((a, b) => a.at - b.at || (a.kind === 'full' ? -1 : 1));
    const tree = await resolveTree(this.storage, row.tenant, row.treeName);
    const rules = await getRetentionRules(this.storage, row);
    return {
      treeId: row.treeName,
      keyPrefix: row.keyPrefix,
      full,
      incremental,
      anchor: row.anchor,
      nameTemplate: template,
      defaultNameTemplate: row.nameTemplate === null,
      captureUnchangedIncrementals: row.captureUnchangedIncrementals,
      nextRuns: planned.slice(0, PLANNED_RUNS),
      lastRun: lastRunOf(row),
      chainDepth: tree
        ? await chainDepthOf(this.storage, row.tenant, {
            treeId: row.treeName,
            keyPrefix: row.keyPrefix,
            physicalTreeId: tree.physicalTreeId,
          })
        : 0,
      retentionRules: rules ? describeRetention(rules) : '',
      protectedCount: await countProtectedOfScope(this.storage, row),
      drillPlans: (
        await listDrillPlans(this.storage, row.tenant, {
          scope: { treeName: row.treeName, keyPrefix: row.keyPrefix },
          limit: 1000,
        })
      ).map((plan) => ({
        name: plan.name,
        nextRunAt: plan.nextRunAt,
        paused: plan.paused,
        choice: describeChoice(plan),
      })),
    };
  }
}

/** "keep last 7, 14 daily, 8 weekly, within 30 d (Europe/Berlin)"; only the rules set. */
export function describeRetention(rules: StoredRetentionRules): string {
  const parts = [
    rules.keepLast > 0 && `last ${rules.keepLast}`,
    rules.keepHourly > 0 && `${rules.keepHourly} hourly`,
    rules.keepDaily > 0 && `${rules.keepDaily} daily`,
    rules.keepWeekly > 0 && `${rules.keepWeekly} weekly`,
    rules.keepMonthly > 0 && `${rules.keepMonthly} monthly`,
    rules.keepYearly > 0 && `${rules.keepYearly} yearly`,
    rules.keepWithinMs > 0 && `within ${formatSpan(rules.keepWithinMs)}`,
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return 'no rules (keeps everything)';
  const zone = rules.keepHourly + rules.keepDaily + rules.keepWeekly + rules.keepMonthly;
  const zoned = zone + rules.keepYearly > 0 && rules.timeZone !== 'UTC';
  return `keep ${parts.join(', ')}${zoned ? ` (${rules.timeZone})` : ''}`;
}

function formatSpan(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 24 && hours % 24 === 0 ? `${hours / 24} d` : `${Math.round(hours)} h`;
}

/** The newer of the scope's full and incremental runs, with the scope's last outcome. */
function lastRunOf(row: ScopeRow): ScheduleView['lastRun'] {
  const full = row.lastFullRunAt;
  const incremental = row.lastIncrementalRunAt;
  if (full === null && incremental === null) return null;
  const kind: ScheduleKind =
    incremental !== null && (full === null || incremental > full) ? 'incremental' : 'full';
  return {
    at: (kind === 'full' ? full : incremental) ?? 0,
    kind,
    outcome: row.lastOutcome as RunOutcome,
    reason: row.lastRunReason ?? '',
  };
}

/** A schedule anchor checked (drill plans use it too): an HH:mm time and an IANA zone. */
export function validateAnchor(
  anchor: { timeOfDay: string; timeZone: string },
  field = 'anchor',
): StoredAnchor {
  const minuteOfDay = parseTimeOfDay(anchor.timeOfDay);
  if (minuteOfDay === undefined) {
    throw invalidArgument(
      `${field}.time_of_day`,
      `${anchor.timeOfDay} is not a 24-hour HH:mm time`,
    );
  }
  if (!isKnownTimeZone(anchor.timeZone)) {
    throw invalidArgument(`${field}.time_zone`, `${anchor.timeZone} is not an IANA time zone`);
  }
  return { minuteOfDay, timeZone: canonicalTimeZone(anchor.timeZone) };
}

function encodeToken(row: ScopeCursor): string {
  return Buffer.from(JSON.stringify([row.treeName, row.keyPrefix])).toString('base64url');
}

function decodeToken(token: string): ScopeCursor | null {
  if (token === '') return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string'
    ) {
      return { treeName: value[0], keyPrefix: value[1] };
    }
  } catch {
    // Falls through to the error below.
  }
  throw invalidArgument('page_token', 'is not a token this listing returned');
}
