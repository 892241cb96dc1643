import type { Insertable, Selectable } from 'kysely';
import { pendingLetter } from './dead-letter-pending.js';
import type { Database, SchemaReportsTable } from '../database-schema.js';
import type { TreeDb } from '../data/tree-db.js';

/**
 * SQL of the schema engine's per-tree records: policies, version configs, the latest
 * remediation or migration report, and the ListTrees annotations. Dead letters and entry
 * write-backs live in schema-entry-store.ts.
 */

/** The tables that hold at most one row per (tenant, tree_name). */
type PerTreeTable = 'schema_policies' | 'schema_version_configs' | 'schema_reports';

/** A per-tree table's columns besides its (tenant, tree_name) key. */
type PerTreeValues<T extends PerTreeTable> = Omit<Insertable<Database[T]>, 'tenant' | 'tree_name'>;

// Kysely cannot resolve column references on a generic table name, so the three helpers
// below query through the union type and cast back; callers stay typed by `T`.

/** The tree's row in `table`, or undefined. */
async function selectTreeRow<T extends PerTreeTable>(
  handle: TreeDb,
  table: T,
  tenant: string,
  treeName: string,
): Promise<Selectable<Database[T]> | undefined> {
  const row = await handle.db
    .selectFrom(table as PerTreeTable)
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return row as Selectable<Database[T]> | undefined;
}

/** Inserts the tree's row in `table`, or replaces its values. */
async function upsertTreeRow<T extends PerTreeTable>(
  handle: TreeDb,
  table: T,
  tenant: string,
  treeName: string,
  values: PerTreeValues<T>,
): Promise<void> {
  const columns = values as PerTreeValues<PerTreeTable>;
  await handle.db
    .insertInto(table as PerTreeTable)
    .values({ tenant, tree_name: treeName, ...columns } as Insertable<Database[PerTreeTable]>)
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doUpdateSet(columns))
    .execute();
}

/** Removes the tree's row from `table`; false when there was none. */
async function deleteTreeRow(
  handle: TreeDb,
  table: PerTreeTable,
  tenant: string,
  treeName: string,
): Promise<boolean> {
  const result = await handle.db
    .deleteFrom(table)
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A stored policy row, as the engine reads it. */
export interface PolicyRow {
  jsonSchema: string;
  mode: string;
  version: number;
  description: string;
  updatedAt: number;
  updatedBy: string;
}

/** A tree's policy, or undefined. */
export async function getPolicyRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<PolicyRow | undefined> {
  const row = await selectTreeRow(handle, 'schema_policies', tenant, treeName);
  return (
    row && {
      jsonSchema: row.json_schema,
      mode: row.mode,
      version: Number(row.version),
      description: row.description,
      updatedAt: Number(row.updated_at),
      updatedBy: row.updated_by,
    }
  );
}

/** Inserts or replaces a tree's policy. */
export async function putPolicyRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  policy: PolicyRow,
): Promise<void> {
  await upsertTreeRow(handle, 'schema_policies', tenant, treeName, {
    json_schema: policy.jsonSchema,
    mode: policy.mode,
    version: policy.version,
    description: policy.description,
    updated_at: policy.updatedAt,
    updated_by: policy.updatedBy,
  });
}

/** Removes a tree's policy; false when there was none. */
export async function deletePolicyRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<boolean> {
  return deleteTreeRow(handle, 'schema_policies', tenant, treeName);
}

/** A stored version config; migrations stay JSON text for the engine to parse. */
export interface VersionConfigRow {
  currentVersion: number;
  targetVersion: number;
  migrationsJson: string;
}

/** A tree's version config, or undefined. */
export async function getVersionConfigRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<VersionConfigRow | undefined> {
  const row = await selectTreeRow(handle, 'schema_version_configs', tenant, treeName);
  return (
    row && {
      currentVersion: Number(row.current_version),
      targetVersion: Number(row.target_version),
      migrationsJson: row.migrations_json,
    }
  );
}

/** Inserts or replaces a tree's version config. */
export async function putVersionConfigRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  config: VersionConfigRow,
  now: number,
): Promise<void> {
  await upsertTreeRow(handle, 'schema_version_configs', tenant, treeName, {
    current_version: config.currentVersion,
    target_version: config.targetVersion,
    migrations_json: config.migrationsJson,
    updated_at: now,
  });
}

/** Raises current_version to `version` (never lowers it); false when no config or already there. */
export async function raiseCurrentVersion(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  version: number,
  now: number,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('schema_version_configs')
    .set({ current_version: version, updated_at: now })
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .where('current_version', '<', version)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes a tree's version config; false when there was none. */
export async function deleteVersionConfigRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<boolean> {
  return deleteTreeRow(handle, 'schema_version_configs', tenant, treeName);
}

/** A remediation or migration report row (latest per tree). */
export interface ReportRow {
  kind: string;
  operationId: string | null;
  state: SchemaReportsTable['state'];
  scanned: number;
  alreadyCompliant: number;
  transformed: number;
  deadLettered: number;
  failed: number;
  fromVersion: number;
  toVersion: number;
  startedAt: number;
  finishedAt: number | null;
}

function toReportRow(row: Selectable<SchemaReportsTable>): ReportRow {
  return {
    kind: row.kind,
    operationId: row.operation_id,
    state: row.state,
    scanned: Number(row.scanned),
    alreadyCompliant: Number(row.already_compliant),
    transformed: Number(row.transformed),
    deadLettered: Number(row.dead_lettered),
    failed: Number(row.failed),
    fromVersion: Number(row.from_version),
    toVersion: Number(row.to_version),
    startedAt: Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** The tree's latest report, or undefined when it was never remediated or migrated. */
export async function getReportRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<ReportRow | undefined> {
  const row = await selectTreeRow(handle, 'schema_reports', tenant, treeName);
  return row && toReportRow(row);
}

/** Stores a report as the tree's latest, replacing the previous one. */
export async function putReportRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  report: ReportRow,
): Promise<void> {
  await upsertTreeRow(handle, 'schema_reports', tenant, treeName, {
    kind: report.kind,
    operation_id: report.operationId,
    state: report.state,
    scanned: report.scanned,
    already_compliant: report.alreadyCompliant,
    transformed: report.transformed,
    dead_lettered: report.deadLettered,
    failed: report.failed,
    from_version: report.fromVersion,
    to_version: report.toVersion,
    started_at: report.startedAt,
    finished_at: report.finishedAt,
  });
}

/** Whether each named tree has a policy, and its dead-letter count, in one query. */
export async function treeSchemaAnnotations(
  handle: TreeDb,
  tenant: string,
  names: readonly string[],
): Promise<Map<string, { hasPolicy: boolean; deadLetterCount: number }>> {
  if (names.length === 0) return new Map();
  const rows = await handle.db
    .selectFrom('trees')
    .select((eb) => [
      'trees.name',
      eb
        .selectFrom('schema_policies')
        .select((inner) => inner.fn.countAll().as('n'))
        .whereRef('schema_policies.tenant', '=', 'trees.tenant')
        .whereRef('schema_policies.tree_name', '=', 'trees.name')
        .as('policies'),
      eb
        .selectFrom('schema_dead_letters')
        .select((inner) => inner.fn.countAll().as('n'))
        .whereRef('schema_dead_letters.tenant', '=', 'trees.tenant')
        .whereRef('schema_dead_letters.tree_name', '=', 'trees.name')
        .where(pendingLetter)
        .as('dead_letters'),
    ])
    .where('trees.tenant', '=', tenant)
    .where('trees.name', 'in', [...names])
    .execute();
  return new Map(
    rows.map((row) => [
      row.name,
      {
        hasPolicy: Number(row.policies ?? 0) > 0,
        deadLetterCount: Number(row.dead_letters ?? 0),
      },
    ]),
  );
}
