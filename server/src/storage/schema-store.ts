import type { Selectable } from 'kysely';
import type { SchemaReportsTable } from './schema.js';
import type { TreeDb } from './tree-db.js';

/**
 * SQL of the schema engine's per-tree records: policies, version configs, the latest
 * remediation or migration report, and the ListTrees annotations. Dead letters and entry
 * write-backs live in schema-entry-store.ts.
 */

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
  const row = await handle.db
    .selectFrom('schema_policies')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
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
  const values = {
    json_schema: policy.jsonSchema,
    mode: policy.mode,
    version: policy.version,
    description: policy.description,
    updated_at: policy.updatedAt,
    updated_by: policy.updatedBy,
  };
  await handle.db
    .insertInto('schema_policies')
    .values({ tenant, tree_name: treeName, ...values })
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doUpdateSet(values))
    .execute();
}

/** Removes a tree's policy; false when there was none. */
export async function deletePolicyRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<boolean> {
  const result = await handle.db
    .deleteFrom('schema_policies')
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
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
  const row = await handle.db
    .selectFrom('schema_version_configs')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
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
  const values = {
    current_version: config.currentVersion,
    target_version: config.targetVersion,
    migrations_json: config.migrationsJson,
    updated_at: now,
  };
  await handle.db
    .insertInto('schema_version_configs')
    .values({ tenant, tree_name: treeName, ...values })
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doUpdateSet(values))
    .execute();
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
  const result = await handle.db
    .deleteFrom('schema_version_configs')
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
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
  const row = await handle.db
    .selectFrom('schema_reports')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return row && toReportRow(row);
}

/** Stores a report as the tree's latest, replacing the previous one. */
export async function putReportRow(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  report: ReportRow,
): Promise<void> {
  const values = {
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
  };
  await handle.db
    .insertInto('schema_reports')
    .values({ tenant, tree_name: treeName, ...values })
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doUpdateSet(values))
    .execute();
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
