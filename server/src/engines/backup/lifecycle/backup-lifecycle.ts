import {
  getRetentionRules,
  putRetentionRules,
  type StoredRetentionRules,
} from '../../../storage/backup/lifecycle/backup-lifecycle-store.js';
import {
  getProtections,
  listProtections,
  protectBackup,
  unprotectBackup,
  type Protection,
} from '../../../storage/backup/lifecycle/backup-protection-store.js';
import type { ScopeKey } from '../../../storage/backup/backup-scope-store.js';
import {
  backupHealth,
  backupNames,
} from '../../../storage/backup/lifecycle/retention-catalog-store.js';
import type { Storage } from '../../../storage/database.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from '../../data/page-tokens.js';
import { validateTreeName } from '../../data/tree-names.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import {
  startTracked,
  type OperationLogger,
  type OperationRecord,
  type OperationRunner,
  type Starter,
  type TrackedStart,
} from '../../operations/index.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import { validateBackupId, validateScope } from '../validation.js';
import {
  runRetentionApply,
  scopeLabel,
  type RetentionApplyRequest,
  type RetentionDeletionEvent,
  type RetentionStopEvent,
  type ScheduledCapture,
} from './retention-apply.js';
import { hasAnyRule, NO_RULES, validateRules, type RetentionRules } from './retention-rules.js';
import {
  buildPreview,
  type RetentionPreview,
  type PreviewPageRequest,
} from './retention-preview.js';
import { evaluateScope } from './scope-evaluation.js';
import { UNNAMED_SUBJECTS, type SubjectNamer } from './protection-refusal.js';

export interface BackupLifecycleOptions {
  storage: Storage;
  catalog: CatalogService;
  runner: OperationRunner;
  clock?: (() => number) | undefined;
  /** Each retention deletion, for the audit trail. */
  onDeleted?: ((event: RetentionDeletionEvent) => Promise<void>) | undefined;
  /** Each automatic apply that stopped instead of deleting, for the audit trail. */
  onStopped?: ((event: RetentionStopEvent) => Promise<void>) | undefined;
  /**
   * Of a scope's usable backups, the share an automatic apply may delete before it stops instead
   * (STORE_RETENTION_AUTO_MAX_SHARE; default half).
   */
  autoApplyMaxShare?: number | undefined;
  /**
   * "Apply after each scheduled capture" of rules set for the first time without saying
   * (STORE_RETENTION_APPLY_AFTER_SCHEDULE; default off: running by itself is the admin's choice).
   */
  applyAfterScheduleDefault?: boolean | undefined;
  logger?: OperationLogger | undefined;
  /** Names a protection's author in keep reasons (a token by its name). */
  subjectNames?: SubjectNamer | undefined;
}

/** A scope's rules as GetRetentionRules returns them. */
export interface ScopeRules {
  scope: ScopeKey;
  rules: RetentionRules;
  applyAfterSchedule: boolean;
  /** False when no rules were ever set: nothing is deleted. */
  configured: boolean;
  updatedAt: number | null;
  updatedBy: string;
}

const MAX_REASON = 500;

/** The scope key of a wire scope (tree + optional key prefix), validated. */
export function scopeKeyOf(
  tenant: string,
  scope: { treeId: string; keyPrefix?: string | undefined } | undefined,
): ScopeKey {
  const valid = validateScope(scope);
  return { tenant, treeName: valid.treeId, keyPrefix: valid.keyPrefix };
}

/**
 * The backup lifecycle: retention rules per scope, their preview and apply, and protections
 * (pins). Deletions go through the catalog's chain-safe delete, which also refuses protected
 * backups for DeleteBackup.
 */
export class BackupLifecycle {
  private readonly clock: () => number;

  constructor(private readonly options: BackupLifecycleOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Registers the RETENTION_APPLY kind on the runner. */
  register(): void {
    const { storage, catalog, onDeleted, onStopped, autoApplyMaxShare } = this.options;
    this.options.runner.register<RetentionApplyRequest, unknown>('RETENTION_APPLY', {
      // Not resumable: an interrupted apply leaves claims its successor takes over once the
      // lease lapsed; what it deleted is recorded per backup.
      resumable: false,
      run: (ctx) =>
        runRetentionApply(
          { storage, catalog, clock: this.clock, onDeleted, onStopped, autoApplyMaxShare },
          ctx,
        ),
    });
  }

  /** "Apply after each scheduled capture" of a scope that has no rules yet. */
  private get applyAfterScheduleDefault(): boolean {
    return this.options.applyAfterScheduleDefault ?? false;
  }

  /**
   * The rules of a scope (none set: all off, configured false, and the server's default of
   * apply-after-schedule, which a rules form starts from).
   */
  async getRules(scope: ScopeKey): Promise<ScopeRules> {
    const stored = await getRetentionRules(this.options.storage, scope);
    return toScopeRules(scope, stored, this.applyAfterScheduleDefault);
  }

  /**
   * Sets the rules of a scope (validated: InvalidArgument naming the field). Apply-after-schedule
   * left unsaid keeps the scope's setting, or for a scope without rules takes the server's default.
   */
  async setRules(
    scope: ScopeKey,
    rules: RetentionRules,
    applyAfterSchedule: boolean | undefined,
    by: string,
  ): Promise<ScopeRules> {
    const valid = validateRules(rules);
    const before =
      applyAfterSchedule === undefined
        ? await getRetentionRules(this.options.storage, scope)
        : undefined;
    const stored: StoredRetentionRules = {
      ...valid,
      applyAfterSchedule:
        applyAfterSchedule ?? before?.applyAfterSchedule ?? this.applyAfterScheduleDefault,
      updatedAt: this.clock(),
      updatedBy: by,
    };
    await putRetentionRules(this.options.storage, scope, stored);
    return toScopeRules(scope, stored, this.applyAfterScheduleDefault);
  }

  /**
   * What the rules would delete and keep now, one page of entries, with the fingerprint. With
   * draft rules (validated like saved ones), what those would do instead of the stored ones.
   */
  async preview(
    scope: ScopeKey,
    page: PreviewPageRequest,
    draftRules?: RetentionRules,
  ): Promise<RetentionPreview> {
    const draft = draftRules && validateRules(draftRules);
    const { storage } = this.options;
    const evaluation = await evaluateScope(storage, scope, this.clock(), draft);
    return buildPreview(
      evaluation,
      page,
      this.clock(),
      (ids) => backupNames(storage, scope.tenant, ids),
      (ids) => backupHealth(storage, scope.tenant, ids),
      (subject) => (this.options.subjectNames ?? UNNAMED_SUBJECTS)(scope.tenant, subject),
    );
  }

  /**
   * Starts applying a preview: refused at once (FailedPrecondition) when the scope's catalog or
   * rules changed since (its fingerprint), and again by the run itself if they change before it.
   * A retry under the tracking id of an apply already started gets that apply back, though the
   * apply itself (or anything since) has moved the fingerprint on.
   */
  async startApply(
    who: Starter,
    scope: ScopeKey,
    expectedFingerprint: string,
  ): Promise<OperationRecord> {
    if (!/^[0-9a-f]{64}$/.test(expectedFingerprint)) {
      throw invalidArgument('expected_fingerprint', 'is required: the fingerprint of a preview');
    }
    return startTracked(
      this.options.runner,
      who,
      applyStart(scope, expectedFingerprint),
      async () => {
        const now = await evaluateScope(this.options.storage, scope, this.clock());
        if (now.fingerprint !== expectedFingerprint) {
          throw failedPrecondition(
            `the catalog or the retention rules of ${scopeLabel(scope)} changed since the preview; ` +
              'preview again and apply that preview',
          );
        }
      },
    );
  }

  /**
   * After a scheduled capture of a scope: applies its rules, when it has rules and their
   * apply-after-schedule setting is on (an admin's choice). The run plans for itself, and is
   * guarded: it deletes nothing, saying why, when its plan would delete the scope's newest healthy
   * backup or more than the allowed share (auto-apply-guard.ts). A tracked operation like any
   * other (created by "retention"), so the Operations page and the tray show it with its result.
   */
  async afterScheduledCapture(
    tenant: string,
    scope: { treeName: string; keyPrefix: string },
    capture?: ScheduledCapture,
  ): Promise<OperationRecord | undefined> {
    const key = { tenant, ...scope };
    const stored = await getRetentionRules(this.options.storage, key);
    if (!stored?.applyAfterSchedule || !hasAnyRule(stored)) return undefined;
    // Follows a scheduled capture, so the schedule bounds it: a tenant's cap never refuses it.
    const who = { tenant, createdBy: 'retention', uncapped: true };
    return startTracked(this.options.runner, who, applyStart(key, null, capture));
  }

  /** Protects (pins) a backup; an earlier protection stays as it was. NotFound when absent. */
  async protect(tenant: string, backupId: string, by: string, reason: string): Promise<Protection> {
    validateBackupId(backupId);
    const why = validReason(reason);
    const protection = await protectBackup(this.options.storage, tenant, {
      backupId,
      protectedBy: by,
      protectedAt: this.clock(),
      reason: why,
    });
    if (!protection) throw notFound(`backup ${backupId} does not exist`);
    return protection;
  }

  /** Lifts a protection; FailedPrecondition when the backup is not protected. */
  async unprotect(tenant: string, backupId: string, reason: string): Promise<Protection> {
    validateBackupId(backupId);
    validReason(reason);
    const removed = await unprotectBackup(this.options.storage, tenant, backupId);
    if (!removed) throw failedPrecondition(`backup ${backupId} is not protected`);
    return removed;
  }

  /** Protections of the given backups, or a page of the tenant's (optionally of one tree). */
  async listProtections(
    tenant: string,
    request: { backupIds: string[]; treeName: string; pageSize: number; pageToken: string },
  ): Promise<{ protections: Protection[]; nextPageToken: string }> {
    if (request.backupIds.length > 0) {
      if (request.backupIds.length > 1000) {
        throw invalidArgument('backup_ids', 'at most 1000 backup ids');
      }
      request.backupIds.forEach((id, i) => validateBackupId(id, `backup_ids[${i}]`));
      const found = await getProtections(this.options.storage, tenant, request.backupIds);
      return { protections: found, nextPageToken: '' };
    }
    const treeName = request.treeName ? validateTreeName(request.treeName, 'tree_id') : undefined;
    const limit = resolvePageSize(request.pageSize, { defaultSize: 100 });
    const after = decodeKeyToken(request.pageToken, (id) => id.length <= 200) ?? '';
    const rows = await listProtections(this.options.storage, tenant, {
      treeName,
      afterBackupId: after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      protections: page,
      nextPageToken: rows.length > limit && last ? encodeKeyToken(last.backupId) : '',
    };
  }
}

function validReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw invalidArgument('reason', 'is required: say why');
  if (trimmed.length > MAX_REASON) {
    throw invalidArgument('reason', `is longer than ${MAX_REASON} characters`);
  }
  return trimmed;
}

function toScopeRules(
  scope: ScopeKey,
  stored: StoredRetentionRules | undefined,
  applyAfterScheduleDefault: boolean,
): ScopeRules {
  if (!stored) {
    return {
      scope,
      // A copy, so no caller can change the constant every unconfigured scope reads.
      rules: { ...NO_RULES },
      applyAfterSchedule: applyAfterScheduleDefault,
      configured: false,
      updatedAt: null,
      updatedBy: '',
    };
  }
  const { applyAfterSchedule, updatedAt, updatedBy, ...rules } = stored;
  return { scope, rules, applyAfterSchedule, configured: true, updatedAt, updatedBy };
}

/** A protection as the transport maps it (the storage layer's row, re-exported). */
export type { Protection } from '../../../storage/backup/lifecycle/backup-protection-store.js';

/** A RETENTION_APPLY of the scope: of a preview (its fingerprint) or after a scheduled capture. */
function applyStart(
  scope: ScopeKey,
  expectedFingerprint: string | null,
  scheduledCapture?: ScheduledCapture,
): TrackedStart {
  const request: RetentionApplyRequest = {
    treeName: scope.treeName,
    keyPrefix: scope.keyPrefix,
    expectedFingerprint,
    ...(scheduledCapture && { scheduledCapture }),
  };
  return { kind: 'RETENTION_APPLY', request, targetId: scope.treeName };
}
