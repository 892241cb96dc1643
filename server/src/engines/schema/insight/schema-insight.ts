import type { DeadLetterRecordRow } from '../../../storage/schema/dead-letter-replay-store.js';
import { listDeadLetterRecords } from '../../../storage/schema/dead-letter-replay-store.js';
import { canonicaliseJsonText } from '../../data/canonical-json.js';
import { resolvePageSize } from '../../data/page-tokens.js';
import { validateKeyPrefix } from '../../data/tree-names.js';
import { invalidArgument } from '../../errors.js';
import type { OperationRunner } from '../../operations/operation-runner.js';
import { startTracked, type Starter } from '../../operations/start-tracked.js';
import type { OperationRecord } from '../../operations/types.js';
import type { KeywordViolation } from '../core/index.js';
import { overBudgetError } from '../validation/validation-pool.js';
import type { StoredPolicy } from '../records.js';
import { checkTree, type SchemaEngine } from '../schema-engine.js';
import { controlOf } from '../schema-tracked.js';
import type { PendingLetterSet } from '../../../storage/schema/dead-letter-discard-store.js';
import {
  DeadLetterDiscarder,
  type ConfirmedDiscard,
  type DiscardSelection,
} from './dead-letter-discard.js';
import {
  DeadLetterReplayer,
  checkId,
  type DeadLetterReplayReport,
  type ReplayCheckpoint,
} from './dead-letter-replay.js';
import { DEFAULT_DRY_RUN_SAMPLES, MAX_DRY_RUN_SAMPLES } from './dry-run-accumulator.js';
import { dryRunPolicy, type PolicyDryRunReport } from './dry-run.js';
import { DEFAULT_PREVIEW_SAMPLES, MAX_PREVIEW_SAMPLES } from './migration-preview-accumulator.js';
import {
  planPreview,
  previewIsStale,
  previewMigration,
  type MigrationPreviewInput,
  type MigrationPreviewReport,
} from './migration-preview.js';

const DEAD_LETTER_REASONS = [
  'SCHEMA_VIOLATION',
  'MIGRATION_FAILED',
  'TRANSFORM_FAILED',
  'OVER_QUOTA',
  'CROSS_TENANT',
];

/** Which letters a listing or bulk replay takes (engine shape of the wire's DeadLetterFilter). */
export interface DeadLetterFilter {
  keyPrefix?: string | undefined;
  reasons?: readonly string[] | undefined;
  ids?: readonly number[] | undefined;
  /** Only letters dead-lettered strictly before this time (epoch ms). */
  before?: number | undefined;
}

interface DryRunRequest {
  treeName: string;
  jsonSchema: string;
  sampleLimit: number;
}
interface PreviewRequest extends MigrationPreviewInput {
  treeName: string;
}
interface ReplayRequest {
  treeName: string;
  filter: DeadLetterFilter;
}

/** What ValidateValue answers: the policy in force and the value's violations of it. */
export interface ValueCheck {
  policy: StoredPolicy | undefined;
  accepted: boolean;
  violations: KeywordViolation[];
}

/**
 * Schema insight (issue 16, sections 3–4): policy dry-runs and dead-letter fix-and-replay, on the
 * shared operation runner and the schema engine's compiler, paging and write guard.
 */
export class SchemaInsight {
  readonly replayer: DeadLetterReplayer;
  private readonly discarder: DeadLetterDiscarder;

  constructor(
    private readonly engine: SchemaEngine,
    private readonly runner: OperationRunner,
    options: { maxValueBytes?: number | undefined } = {},
  ) {
    this.replayer = new DeadLetterReplayer(engine, options.maxValueBytes);
    this.discarder = new DeadLetterDiscarder(engine);
  }

  /**
   * Registers POLICY_DRY_RUN and MIGRATION_PREVIEW (reads: they rerun from the start) and
   * DEAD_LETTER_REPLAY (resumes).
   */
  register(): void {
    this.runner.register<DryRunRequest, unknown>('POLICY_DRY_RUN', {
      resumable: false,
      run: (ctx): Promise<PolicyDryRunReport> =>
        dryRunPolicy(
          this.engine,
          { tenant: ctx.tenant, treeName: ctx.request.treeName },
          { jsonSchema: ctx.request.jsonSchema, sampleLimit: ctx.request.sampleLimit },
          controlOf(ctx),
        ),
    });
    this.runner.register<PreviewRequest, unknown>('MIGRATION_PREVIEW', {
      resumable: false,
      run: (ctx): Promise<MigrationPreviewReport> =>
        previewMigration(
          this.engine,
          { tenant: ctx.tenant, treeName: ctx.request.treeName },
          ctx.request,
          controlOf(ctx),
        ),
    });
    this.runner.register<ReplayRequest, ReplayCheckpoint>('DEAD_LETTER_REPLAY', {
      resumable: true,
      run: (ctx): Promise<DeadLetterReplayReport> =>
        this.replayer.replayAll(
          { tenant: ctx.tenant, treeName: ctx.request.treeName },
          ctx.request.filter,
          controlOf(ctx),
        ),
    });
  }

  /** Starts a dry-run of a draft schema; a schema that does not compile is InvalidArgument now. */
  async startPolicyDryRun(
    start: Starter,
    treeName: string,
    draft: { jsonSchema: string; sampleLimit: number },
  ): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    const limit = draft.sampleLimit;
    const request: DryRunRequest = {
      treeName,
      jsonSchema: draft.jsonSchema,
      sampleLimit: limit === 0 ? DEFAULT_DRY_RUN_SAMPLES : limit,
    };
    return this.start(start, 'POLICY_DRY_RUN', treeName, request, async () => {
      await this.engine.validation.compile(start.tenant, draft.jsonSchema, 'json_schema');
      if (!Number.isInteger(limit) || limit < 0 || limit > MAX_DRY_RUN_SAMPLES) {
        throw invalidArgument('sample_limit', `must be between 0 and ${MAX_DRY_RUN_SAMPLES}`);
      }
    });
  }

  /**
   * Starts a preview of StartMigration (no new target) or StartAdvanceAndMigrate (a new target),
   * after the same up-front checks they make, so a request they would refuse is refused now.
   */
  async startMigrationPreview(
    start: Starter,
    treeName: string,
    input: MigrationPreviewInput,
  ): Promise<OperationRecord> {
    const limit = input.sampleLimit;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PREVIEW_SAMPLES) {
      throw invalidArgument('sample_limit', `must be between 0 and ${MAX_PREVIEW_SAMPLES}`);
    }
    const request: PreviewRequest = {
      treeName,
      ...(input.newTargetVersion !== undefined && { newTargetVersion: input.newTargetVersion }),
      sampleLimit: limit === 0 ? DEFAULT_PREVIEW_SAMPLES : limit,
    };
    return this.start(start, 'MIGRATION_PREVIEW', treeName, request, async () => {
      await planPreview(this.engine, start.tenant, treeName, input.newTargetVersion);
    });
  }

  /** Whether what a migration preview read has changed since (see previewIsStale). */
  previewIsStale(tenant: string, report: MigrationPreviewReport): Promise<boolean> {
    return previewIsStale(this.engine, tenant, report);
  }

  /** Starts a bulk replay of the tree's pending letters that the filter takes. */
  async startDeadLetterReplay(
    start: Starter,
    treeName: string,
    filter: DeadLetterFilter,
  ): Promise<OperationRecord> {
    checkTree(start.tenant, treeName);
    const request: ReplayRequest = { treeName, filter: checkFilter(filter) };
    return this.start(start, 'DEAD_LETTER_REPLAY', treeName, request);
  }

  /** Checks a value against the tree's policy in force, as the write guard would. */
  async validateValue(tenant: string, treeName: string, valueJson: string): Promise<ValueCheck> {
    checkTree(tenant, treeName);
    let value: unknown;
    try {
      value = canonicaliseJsonText(valueJson).value;
    } catch (error) {
      throw invalidArgument('value_json', (error as Error).message);
    }
    const policy = await this.engine.getPolicy(tenant, treeName);
    if (!policy) return { policy: undefined, accepted: true, violations: [] };
    const [verdict] = await this.engine.validateMany({ tenant, jsonSchema: policy.jsonSchema }, [
      value,
    ]);
    // Over the budget: ENFORCE would refuse the write (ResourceExhausted), so the check does too;
    // AUDIT would store it and report it failing, so the check answers accepted with the reason.
    if (verdict?.kind === 'over_budget') {
      if (policy.mode === 'ENFORCE') throw overBudgetError(verdict.reason);
      const violations = [{ keyword: 'budget', path: '', message: verdict.reason }];
      return { policy, accepted: true, violations };
    }
    const violations = verdict?.kind === 'fail' ? [...verdict.violations] : [];
    return { policy, accepted: policy.mode === 'AUDIT' || violations.length === 0, violations };
  }

  /** One page of the tree's letters with their replay history, oldest first. */
  async listDeadLetters(
    tenant: string,
    treeName: string,
    request: {
      pageSize: number;
      pageToken: string;
      filter: DeadLetterFilter;
      includeReplayed: boolean;
      includeDiscarded?: boolean | undefined;
    },
  ): Promise<{ deadLetters: DeadLetterRecordRow[]; nextPageToken: string }> {
    checkTree(tenant, treeName);
    const pageSize = resolvePageSize(request.pageSize);
    const afterId = decodeIdToken(request.pageToken);
    const rows = await listDeadLetterRecords(
      this.engine.storage,
      { tenant, treeName },
      {
        ...checkFilter(request.filter),
        includeReplayed: request.includeReplayed,
        includeDiscarded: request.includeDiscarded,
      },
      { afterId, limit: pageSize + 1 },
    );
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      deadLetters: page,
      nextPageToken: rows.length > pageSize && last ? String(last.id) : '',
    };
  }

  /** The pending letters a discard of this selection would take: count and fingerprint. */
  countPendingDeadLetters(
    tenant: string,
    treeName: string,
    selection: DiscardSelection,
  ): Promise<PendingLetterSet> {
    return this.discarder.count(tenant, treeName, checkSelection(selection));
  }

  /** Discards the pending letters the selection takes when they are still the confirmed set. */
  discardDeadLetters(
    target: { tenant: string; treeName: string; discardedBy: string },
    selection: DiscardSelection,
    confirmed: ConfirmedDiscard,
  ): Promise<number> {
    return this.discarder.discard(target, checkSelection(selection), confirmed);
  }

  /** Deletes letters discarded before `before`; the audit retention sweep calls it. */
  purgeDiscardedDeadLetters(before: number): Promise<number> {
    return this.discarder.purgeDiscarded(before);
  }

  /** Starts `kind` on the tree; `checks` run only when the tracking id is new (startTracked). */
  private start(
    start: Starter,
    kind: string,
    treeName: string,
    request: object,
    checks?: () => Promise<void>,
  ): Promise<OperationRecord> {
    return startTracked(this.runner, start, { kind, request, targetId: treeName }, checks);
  }
}

function checkFilter(filter: DeadLetterFilter): DeadLetterFilter {
  const reasons = filter.reasons ?? [];
  reasons.forEach((reason, index) => {
    if (!DEAD_LETTER_REASONS.includes(reason)) {
      throw invalidArgument(`filter.reasons[${index}]`, `${reason} is not a dead-letter reason`);
    }
  });
  const ids = filter.ids ?? [];
  ids.forEach((id, index) => checkId(id, `filter.dead_letter_ids[${index}]`));
  if (ids.length > 1000) throw invalidArgument('filter.dead_letter_ids', 'at most 1000 ids');
  const keyPrefix = validateKeyPrefix(filter.keyPrefix, 'filter.key_prefix');
  const { before } = filter;
  if (before !== undefined && (!Number.isSafeInteger(before) || before <= 0)) {
    throw invalidArgument('filter.dead_lettered_before', 'must be a time after 1970');
  }
  return { keyPrefix, reasons: [...reasons], ids: [...ids], before };
}

function checkSelection(selection: DiscardSelection): DiscardSelection {
  return selection.kind === 'filter'
    ? { ...selection, filter: checkFilter(selection.filter) }
    : selection;
}

function decodeIdToken(token: string): number | undefined {
  if (token === '') return undefined;
  const id = Number(token);
  if (!/^[1-9]\d*$/.test(token) || !Number.isSafeInteger(id)) {
    throw invalidArgument('page_token', 'not a token this service issued');
  }
  return id;
}

/** A dead letter as the transport maps it (the storage layer's row, re-exported). */
export type { DeadLetterRecordRow } from '../../../storage/schema/dead-letter-replay-store.js';
