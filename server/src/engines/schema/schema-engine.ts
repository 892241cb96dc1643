import type { Storage } from '../../storage/database.js';
import {
  countDeadLetters,
  insertDeadLetters,
  listDeadLetters,
} from '../../storage/schema/schema-entry-store.js';
import {
  deletePolicyRow,
  deleteVersionConfigRow,
  getPolicyRow,
  getReportRow,
  getVersionConfigRow,
  putPolicyRow,
  putVersionConfigRow,
  treeSchemaAnnotations,
} from '../../storage/schema/schema-store.js';
import { canonicalJson } from '../data/canonical-json.js';
import type {
  BatchWriteGuard,
  TreeAnnotations,
  WriteGuard,
  WriteVerdict,
} from '../data/tree-data-engine.js';
import { validateTenantId, validateTreeName } from '../data/tree-names.js';
import { failedPrecondition } from '../errors.js';
import {
  advanceTarget,
  checkPolicyFields,
  formatViolation,
  validateVersionConfig,
  type PolicyMode,
  type SchemaPolicy,
  type VersionConfig,
  type Violation,
} from './core/index.js';
import type { DeadLetter, DeadLetterReason, RemediationReport, StoredPolicy } from './records.js';
import {
  overBudgetError,
  ValidationPool,
  type ValidationRequest,
  type ValueVerdict,
} from './validation/validation-pool.js';

/** Rows per page of migrations, remediations and scans unless configured. */
export const DEFAULT_SCHEMA_PAGE_SIZE = 500;

export interface SchemaEngineOptions {
  storage: Storage;
  clock?: () => number;
  /** Entries read (and written back) per page by migrations, remediations and scans. */
  pageSize?: number;
  /** Called after each committed page of a migration or remediation (metrics, tests). */
  onPage?: PageObserver | undefined;
  /** The worker threads that compile schemas and validate values (a default pool if absent). */
  validation?: ValidationPool | undefined;
}

/** Sees a rewrite's progress after each committed page; the run waits for it. */
export type PageObserver = (page: {
  tenant: string;
  treeName: string;
  scanned: number;
}) => void | Promise<void>;

/** A policy as a caller sets it; an absent mode is ENFORCE (the wire's UNSPECIFIED). */
export interface PolicyInput {
  jsonSchema: string;
  mode?: PolicyMode | undefined;
  version: number;
  description?: string | undefined;
}

/** Checks a tenant and a tenant-local tree name (InvalidArgument naming tree_id). */
export function checkTree(tenant: string, treeName: string): void {
  validateTenantId(tenant);
  validateTreeName(treeName, 'tree_id');
}

/** Parses stored migration steps (written by this engine, so trusted). */
export function parseVersionConfig(row: {
  currentVersion: number;
  targetVersion: number;
  migrationsJson: string;
}): VersionConfig {
  return {
    currentVersion: row.currentVersion,
    targetVersion: row.targetVersion,
    migrations: JSON.parse(row.migrationsJson) as VersionConfig['migrations'],
  };
}

/**
 * The schema engine's per-tree state: policies, version configs, dead letters, the write guard
 * that enforces policies on TreeDataService writes, and ListTrees annotations. Paged runs
 * (migration, remediation, scans) are in schema-runs.ts; tracked starts in schema-tracked.ts.
 */
export class SchemaEngine {
  readonly storage: Storage;
  readonly clock: () => number;
  readonly pageSize: number;
  readonly onPage: PageObserver | undefined;
  /** Every schema compiles and every value is judged here, off the event loop. */
  readonly validation: ValidationPool;

  constructor(options: SchemaEngineOptions) {
    this.storage = options.storage;
    this.validation = options.validation ?? new ValidationPool();
    this.onPage = options.onPage;
    this.clock = options.clock ?? Date.now;
    const size = options.pageSize ?? DEFAULT_SCHEMA_PAGE_SIZE;
    this.pageSize = Number.isInteger(size) && size > 0 ? size : DEFAULT_SCHEMA_PAGE_SIZE;
  }

  /** Compiles and stores a tree's policy; InvalidArgument with the compiler's message otherwise. */
  async setPolicy(
    tenant: string,
    treeName: string,
    input: PolicyInput,
    updatedBy: string,
  ): Promise<StoredPolicy> {
    checkTree(tenant, treeName);
    const policy = normalisePolicy(input);
    await this.compilePolicy(tenant, policy, 'policy');
    const stored: StoredPolicy = {
      jsonSchema: policy.jsonSchema,
      mode: policy.mode,
      version: policy.version,
      description: policy.description ?? '',
      updatedAt: this.clock(),
      updatedBy,
    };
    await putPolicyRow(this.storage, tenant, treeName, stored);
    return stored;
  }

  /** Checks a policy's fields and compiles its schema in the pool (InvalidArgument naming them). */
  async compilePolicy(tenant: string, policy: SchemaPolicy, field: string): Promise<string> {
    checkPolicyFields(policy, field);
    return (await this.validation.compile(tenant, policy.jsonSchema, `${field}.json_schema`))
      .schemaHash;
  }

  /** Judges values against a schema in the pool, one verdict per value (see ValidationPool). */
  validateMany(request: ValidationRequest, values: readonly unknown[]): Promise<ValueVerdict[]> {
    return this.validation.validateMany(request, values);
  }

  /** Ends the validation threads (server stop). */
  async close(): Promise<void> {
    await this.validation.close();
  }

  /** The tree's policy, or undefined when none is stored. */
  async getPolicy(tenant: string, treeName: string): Promise<StoredPolicy | undefined> {
    checkTree(tenant, treeName);
    const row = await getPolicyRow(this.storage, tenant, treeName);
    return row && { ...row, mode: row.mode === 'AUDIT' ? 'AUDIT' : 'ENFORCE' };
  }

  /** Removes the tree's policy; false when there was none. */
  async clearPolicy(tenant: string, treeName: string): Promise<boolean> {
    checkTree(tenant, treeName);
    return deletePolicyRow(this.storage, tenant, treeName);
  }

  /** Validates (with core) and stores the tree's version config. */
  async setVersionConfig(tenant: string, treeName: string, config: VersionConfig): Promise<void> {
    checkTree(tenant, treeName);
    validateVersionConfig(config, 'config');
    await this.storeConfig(tenant, treeName, config);
  }

  /** The tree's version config, or undefined when none is stored. */
  async getVersionConfig(tenant: string, treeName: string): Promise<VersionConfig | undefined> {
    checkTree(tenant, treeName);
    const row = await getVersionConfigRow(this.storage, tenant, treeName);
    return row && parseVersionConfig(row);
  }

  /** Raises the target version and returns the resulting config; below current is FailedPrecondition. */
  async advanceTargetVersion(
    tenant: string,
    treeName: string,
    newTarget: number,
  ): Promise<VersionConfig> {
    const config = await this.requireVersionConfig(tenant, treeName);
    const advanced = advanceTarget(config, newTarget);
    await this.storeConfig(tenant, treeName, advanced);
    return advanced;
  }

  /** Removes the tree's version config; false when there was none. */
  async clearVersionConfig(tenant: string, treeName: string): Promise<boolean> {
    checkTree(tenant, treeName);
    return deleteVersionConfigRow(this.storage, tenant, treeName);
  }

  /** The tree's version config; FailedPrecondition when it has none. */
  async requireVersionConfig(tenant: string, treeName: string): Promise<VersionConfig> {
    const config = await this.getVersionConfig(tenant, treeName);
    if (!config) throw failedPrecondition(`tree '${treeName}' has no version config`);
    return config;
  }

  /** Stores a config that has already been validated. */
  async storeConfig(tenant: string, treeName: string, config: VersionConfig): Promise<void> {
    await putVersionConfigRow(
      this.storage,
      tenant,
      treeName,
      {
        currentVersion: config.currentVersion,
        targetVersion: config.targetVersion,
        migrationsJson: JSON.stringify(config.migrations),
      },
      this.clock(),
    );
  }

  /** The tree's dead letters, oldest first, read from the database a page at a time. */
  async *streamDeadLetters(
    tenant: string,
    treeName: string,
    pageSize = this.pageSize,
  ): AsyncGenerator<DeadLetter> {
    checkTree(tenant, treeName);
    let afterId: number | undefined;
    for (;;) {
      const rows = await listDeadLetters(this.storage, tenant, treeName, {
        limit: pageSize,
        ...(afterId !== undefined && { afterId }),
      });
      for (const row of rows) {
        yield { ...row, reason: row.reason as DeadLetterReason };
      }
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      afterId = last.id;
    }
  }

  /** How many dead letters the tree holds. */
  async countDeadLetters(tenant: string, treeName: string): Promise<number> {
    checkTree(tenant, treeName);
    return countDeadLetters(this.storage, tenant, treeName);
  }

  /** The tree's latest remediation or migration report (running or finished), or undefined. */
  async getRemediationStatus(
    tenant: string,
    treeName: string,
  ): Promise<RemediationReport | undefined> {
    checkTree(tenant, treeName);
    const row = await getReportRow(this.storage, tenant, treeName);
    if (!row) return undefined;
    const { kind: _kind, ...report } = row;
    return { treeId: treeName, ...report };
  }

  /**
   * The TreeDataEngine's write guard for a group of writes to one tree: stamps them with the
   * tree's current schema version and, under an ENFORCE policy, turns each failing value into a
   * SCHEMA_VIOLATION dead letter. The policy is read once and the group's dead letters are stored
   * in one transaction (group commit and PutEntries send many writes at once).
   */
  readonly batchWriteGuard: BatchWriteGuard = async ({ tenant, treeName }, writes) => {
    const [policy, config] = await Promise.all([
      getPolicyRow(this.storage, tenant, treeName),
      getVersionConfigRow(this.storage, tenant, treeName),
    ]);
    const schemaVersion = config?.currentVersion ?? 0;
    const applied: WriteVerdict = { apply: true, schemaVersion };
    // AUDIT applies the write; the next compliance scan reports it.
    if (!policy || policy.mode === 'AUDIT') return writes.map(() => applied);
    const judged = await this.validateMany(
      { tenant, jsonSchema: policy.jsonSchema },
      writes.map((write) => write.value),
    );
    // A value over the validation budget refuses its write (ResourceExhausted) before anything
    // is stored; the group writer then asks again per request, so only that request fails (the
    // pool remembers the value, so the second ask costs nothing).
    const over = judged.find((verdict) => verdict.kind === 'over_budget');
    if (over?.kind === 'over_budget') throw overBudgetError(over.reason);
    const deadLetteredAt = this.clock();
    const letters = [];
    const verdicts: WriteVerdict[] = [];
    for (const [index, { key, value }] of writes.entries()) {
      const verdict = judged[index];
      if (verdict?.kind !== 'fail') {
        verdicts.push(applied);
        continue;
      }
      const violations = verdict.violations;
      letters.push({
        tenant,
        treeName,
        key,
        valueJson: canonicalJson(value),
        reason: 'SCHEMA_VIOLATION',
        errors: violations.map(formatViolation),
        sourceOperationId: null,
        schemaVersion,
        deadLetteredAt,
      });
      verdicts.push({ apply: false, reason: 'SCHEMA_VIOLATION' });
    }
    await insertDeadLetters(this.storage, letters);
    return verdicts;
  };

  /** The single-write form of batchWriteGuard. */
  readonly writeGuard: WriteGuard = async ({ tenant, treeName, key, value }) => {
    const [verdict] = await this.batchWriteGuard({ tenant, treeName }, [{ key, value }]);
    if (!verdict) throw new Error('the write guard gave no verdict');
    return verdict;
  };

  /**
   * The write guard's verdict on a value, without its side effects (no dead letter): the tree's
   * schema version stamp and, under an ENFORCE policy, the violations that refuse it. Dead-letter
   * replay asks this before writing.
   */
  async judgeWrite(tenant: string, treeName: string, value: unknown): Promise<WriteJudgement> {
    const [policy, config] = await Promise.all([
      getPolicyRow(this.storage, tenant, treeName),
      getVersionConfigRow(this.storage, tenant, treeName),
    ]);
    const schemaVersion = config?.currentVersion ?? 0;
    // AUDIT applies the write; the next compliance scan reports it.
    if (!policy || policy.mode === 'AUDIT') return { apply: true, schemaVersion, violations: [] };
    const [verdict] = await this.validateMany({ tenant, jsonSchema: policy.jsonSchema }, [value]);
    if (verdict?.kind === 'over_budget') throw overBudgetError(verdict.reason);
    const violations = verdict?.kind === 'fail' ? verdict.violations.map(plainViolation) : [];
    return { apply: violations.length === 0, schemaVersion, violations };
  }

  /** ListTrees annotations: policy presence and dead-letter counts, one query per page. */
  readonly treeAnnotations: TreeAnnotations = (tenant, names) =>
    treeSchemaAnnotations(this.storage, tenant, names);
}

/** What the write guard would do with a value (see SchemaEngine.judgeWrite). */
export interface WriteJudgement {
  apply: boolean;
  schemaVersion: number;
  violations: Violation[];
}

function plainViolation(violation: Violation): Violation {
  return { path: violation.path, message: violation.message };
}

/** The core's policy shape from a caller's input (mode defaults to ENFORCE). */
export function normalisePolicy(input: PolicyInput): SchemaPolicy {
  return {
    jsonSchema: input.jsonSchema,
    mode: input.mode ?? 'ENFORCE',
    version: input.version,
    description: input.description ?? '',
  };
}
