import { sql, type Selectable } from 'kysely';
import type { BackupsTable } from '../database-schema.js';
import { withTransaction, type TreeDb } from '../data/tree-db.js';

/**
 * SQL of the backup catalog (DESIGN.md §3 Backup): rows exist only for backups whose artifacts
 * and manifest are durable; the manifest itself is stored as JSON beside the columns filters use.
 */

/** A catalog row as the backup engine reads it. */
export interface BackupRow {
  tenant: string;
  id: string;
  name: string;
  kind: string;
  treeName: string;
  keyPrefix: string | null;
  baseBackupId: string | null;
  setId: string | null;
  physicalTreeId: string;
  createdAt: number;
  completedAt: number;
  toSequence: number;
  manifestJson: string;
  lastHealthStatus: string | null;
  lastVerifiedAt: number | null;
  healthReportJson: string | null;
  healthMonitoring: boolean;
  healthIntervalMs: number | null;
  healthNextCheckAt: number | null;
  /** `sum-sha256:<hex>:<count>`; null for a backup captured before content digests. */
  contentDigest: string | null;
}

/** What a capture (or a catalog rebuild) inserts. */
export type NewBackupRow = Pick<
  BackupRow,
  | 'tenant'
  | 'id'
  | 'name'
  | 'kind'
  | 'treeName'
  | 'keyPrefix'
  | 'baseBackupId'
  | 'setId'
  | 'physicalTreeId'
  | 'createdAt'
  | 'completedAt'
  | 'toSequence'
  | 'manifestJson'
> & {
  /** The capture operation publishing it (absent for rows a catalog rebuild restores). */
  operationId?: string | null;
};

function toRow(row: Selectable<BackupsTable>): BackupRow {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    tenant: row.tenant,
    id: row.id,
    name: row.name,
    kind: row.kind,
    treeName: row.tree_name,
    keyPrefix: row.key_prefix,
    baseBackupId: row.base_backup_id,
    setId: row.set_id,
    physicalTreeId: row.physical_tree_id,
    createdAt: Number(row.created_at),
    completedAt: Number(row.completed_at),
    toSequence: Number(row.to_sequence),
    manifestJson: row.manifest_json,
    lastHealthStatus: row.last_health_status,
    lastVerifiedAt: num(row.last_verified_at),
    healthReportJson: row.health_report_json,
    healthMonitoring: Number(row.health_monitoring) !== 0,
    healthIntervalMs: num(row.health_interval_ms),
    healthNextCheckAt: num(row.health_next_check_at),
    contentDigest: row.content_digest,
  };
}

/** The `backups` table columns of a new catalog row (health fields empty). */
export function backupRowValues(row: NewBackupRow) {
  return {
    tenant: row.tenant,
    id: row.id,
    name: row.name,
    kind: row.kind,
    tree_name: row.treeName,
    key_prefix: row.keyPrefix,
    base_backup_id: row.baseBackupId,
    set_id: row.setId,
    physical_tree_id: row.physicalTreeId,
    created_at: row.createdAt,
    completed_at: row.completedAt,
    to_sequence: row.toSequence,
    manifest_json: row.manifestJson,
    last_health_status: null,
    last_verified_at: null,
    health_report_json: null,
    health_monitoring: 0,
    health_interval_ms: null,
    health_next_check_at: null,
    operation_id: row.operationId ?? null,
    ...manifestColumns(row.manifestJson),
  };
}

/**
 * The columns a manifest fills: its byteSize (0 when it records none) and its content digest
 * (null when it has none), so a catalog rebuilt from manifests carries them too.
 */
function manifestColumns(manifestJson: string): {
  byte_size: number;
  content_digest: string | null;
} {
  const manifest = JSON.parse(manifestJson) as { byteSize?: unknown; contentDigest?: unknown };
  const size = manifest.byteSize;
  const digest = manifest.contentDigest;
  return {
    byte_size: typeof size === 'number' && Number.isFinite(size) ? size : 0,
    content_digest: typeof digest === 'string' && digest !== '' ? digest : null,
  };
}

/**
 * Makes finished backups visible, all at once (a set's members in one transaction), and drops
 * their capture claims. Refuses ('base_missing') when a base was deleted while the capture ran,
 * so the catalog never holds an incremental whose chain is broken.
 */
export async function publishBackups(
  handle: TreeDb,
  rows: readonly NewBackupRow[],
): Promise<'published' | 'base_missing'> {
  return withTransaction(handle, async (tx) => {
    for (const row of rows) {
      if (row.baseBackupId !== null) {
        const base = await tx.db
          .selectFrom('backups')
          .select('id')
          .where('tenant', '=', row.tenant)
          .where('id', '=', row.baseBackupId)
          .$if(tx.dialect === 'postgres', (qb) => qb.forShare())
          .executeTakeFirst();
        if (!base) return 'base_missing';
      }
    }
    for (const row of rows) {
      await tx.db.insertInto('backups').values(backupRowValues(row)).execute();
      await tx.db
        .deleteFrom('backup_captures')
        .where('tenant', '=', row.tenant)
        .where('backup_id', '=', row.id)
        .execute();
    }
    return 'published';
  });
}

/** The backups a capture operation published, in the order it published them. */
export async function listBackupRowsOfOperation(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<BackupRow[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRow);
}

/** Inserts a row rebuilt from a manifest unless one exists; true when inserted. */
export async function insertBackupIfAbsent(handle: TreeDb, row: NewBackupRow): Promise<boolean> {
  const inserted = await handle.db
    .insertInto('backups')
    .values(backupRowValues(row))
    .onConflict((oc) => oc.columns(['tenant', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** One catalog row, or undefined. */
export async function getBackupRow(
  handle: TreeDb,
  tenant: string,
  id: string,
): Promise<BackupRow | undefined> {
  const row = await handle.db
    .selectFrom('backups')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRow(row);
}

/**
 * The names of those of `ids` that are backups of the tenant, one query for the catalog and one
 * for what retention deleted (its deletion record keeps the name); an id that is no backup, or a
 * backup deleted by hand (its row is gone), is left out.
 */
export async function backupNamesByIds(
  handle: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  const names = new Map<string, string>();
  if (wanted.length === 0) return names;
  const present = await handle.db
    .selectFrom('backups')
    .select(['id', 'name'])
    .where('tenant', '=', tenant)
    .where('id', 'in', wanted)
    .execute();
  for (const row of present) names.set(row.id, row.name);
  const gone = wanted.filter((id) => !names.has(id));
  if (gone.length === 0) return names;
  const deleted = await handle.db
    .selectFrom('backup_retention_deletions')
    .select(['backup_id', 'backup_name'])
    .where('tenant', '=', tenant)
    .where('backup_id', 'in', gone)
    .execute();
  for (const row of deleted) names.set(row.backup_id, row.backup_name);
  return names;
}

/** Filters of a catalog page (all optional). */
export interface BackupFilter {
  treeName?: string | undefined;
  kind?: string | undefined;
  setId?: string | undefined;
  createdAfter?: number | undefined;
  createdBefore?: number | undefined;
  nameContains?: string | undefined;
  /** null: never checked. */
  healthStatus?: string | null | undefined;
}

/**
 * A page of a tenant's catalog, newest first, keyset-paged on (created_at, id) so rows inserted
 * while a caller pages never shift or repeat what it has seen.
 */
export async function listBackupRows(
  handle: TreeDb,
  tenant: string,
  filter: BackupFilter,
  page: { after?: { createdAt: number; id: string } | undefined; limit: number },
): Promise<BackupRow[]> {
  const after = page.after;
  const needle = filter.nameContains?.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await handle.db
    .selectFrom('backups')
    .selectAll()
    .where('tenant', '=', tenant)
    .$if(filter.treeName !== undefined, (qb) => qb.where('tree_name', '=', filter.treeName ?? ''))
    .$if(filter.kind !== undefined, (qb) => qb.where('kind', '=', filter.kind ?? ''))
    .$if(filter.setId !== undefined, (qb) => qb.where('set_id', '=', filter.setId ?? ''))
    .$if(filter.createdAfter !== undefined, (qb) =>
      qb.where('created_at', '>', filter.createdAfter ?? 0),
    )
    .$if(filter.createdBefore !== undefined, (qb) =>
      qb.where('created_at', '<', filter.createdBefore ?? 0),
    )
    .$if(needle !== undefined && needle !== '', (qb) =>
      qb.where(sql<boolean>`lower(name) like ${`%${needle ?? ''}%`} escape '\\'`),
    )
    .$if(filter.healthStatus !== undefined, (qb) =>
      filter.healthStatus === null
        ? qb.where('last_health_status', 'is', null)
        : qb.where('last_health_status', '=', filter.healthStatus ?? ''),
    )
    .$if(after !== undefined, (qb) =>
      qb
        // Redundant with the OR below, but it is what bounds the index range: with the OR alone
        // SQLite walks the index from the newest row, so a page deep in a 1 000 000-row catalog
        // took 10× the first page.
        .where('created_at', '<=', after?.createdAt ?? 0)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', after?.createdAt ?? 0),
            eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '<', after?.id ?? '')]),
          ]),
        ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .execute();
  return rows.map(toRow);
}

/** The names of these backups by id (a backup without a name, or absent, is left out). */
export async function getBackupNames(
  handle: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await handle.db
    .selectFrom('backups')
    .select(['id', 'name'])
    .where('tenant', '=', tenant)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.filter((r) => r.name !== '').map((r) => [r.id, r.name]));
}

/** Ids of the backups whose base is `id` (direct dependants). */
export async function listDirectDependants(
  handle: TreeDb,
  tenant: string,
  id: string,
): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .select('id')
    .where('tenant', '=', tenant)
    .where('base_backup_id', '=', id)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.id);
}

/** Ids of a set's members, oldest first. */
export async function listSetMembers(
  handle: TreeDb,
  tenant: string,
  setId: string,
): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .select('id')
    .where('tenant', '=', tenant)
    .where('set_id', '=', setId)
    .orderBy('tree_name')
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes catalog rows; returns how many went. */
export async function deleteBackupRows(
  handle: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await handle.db
    .deleteFrom('backups')
    .where('tenant', '=', tenant)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The newest backup of a tree (optionally only of one physical tree and kind), or undefined. */
export async function latestBackupOfTree(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  options: { physicalTreeId?: string; keyPrefix?: string | null } = {},
): Promise<BackupRow | undefined> {
  const row = await handle.db
    .selectFrom('backups')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .$if(options.physicalTreeId !== undefined, (qb) =>
      qb.where('physical_tree_id', '=', options.physicalTreeId ?? ''),
    )
    .$if(options.keyPrefix !== undefined, (qb) =>
      options.keyPrefix === null
        ? qb.where('key_prefix', 'is', null)
        : qb.where('key_prefix', '=', options.keyPrefix ?? ''),
    )
    .orderBy('to_sequence', 'desc')
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toRow(row);
}

/** Every catalog row of a tenant (scrub), or of all tenants. */
export async function listAllBackupRows(handle: TreeDb, tenant?: string): Promise<BackupRow[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .selectAll()
    .$if(tenant !== undefined, (qb) => qb.where('tenant', '=', tenant ?? ''))
    .orderBy('created_at')
    .execute();
  return rows.map(toRow);
}

/** Records that a capture is about to write files for `backupId`. */
export async function claimCapture(
  handle: TreeDb,
  claim: { tenant: string; backupId: string; operationId: string; now: number },
): Promise<void> {
  await handle.db
    .insertInto('backup_captures')
    .values({
      tenant: claim.tenant,
      backup_id: claim.backupId,
      operation_id: claim.operationId,
      started_at: claim.now,
    })
    .execute();
}

/** Forgets a capture claim (the capture failed and cleaned up, or scrub pruned it). */
export async function releaseCapture(
  handle: TreeDb,
  tenant: string,
  backupId: string,
): Promise<void> {
  await handle.db
    .deleteFrom('backup_captures')
    .where('tenant', '=', tenant)
    .where('backup_id', '=', backupId)
    .execute();
}

/**
 * Backup ids of a tenant's captures that may still be writing: their operation is queued, or
 * running under a lease that has not expired. A claim whose operation is gone, finished or whose
 * lease lapsed belongs to a crashed capture, so its files are leftovers.
 */
export async function liveCaptureIds(
  handle: TreeDb,
  tenant: string,
  now: number,
): Promise<Set<string>> {
  const rows = await handle.db
    .selectFrom('backup_captures')
    .innerJoin('operations', 'operations.id', 'backup_captures.operation_id')
    .select('backup_captures.backup_id')
    .where('backup_captures.tenant', '=', tenant)
    .where((eb) =>
      eb.or([
        eb('operations.state', '=', 'QUEUED'),
        eb.and([
          eb('operations.state', '=', 'RUNNING'),
          eb('operations.lease_expires_at', '>', now),
        ]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.backup_id));
}
