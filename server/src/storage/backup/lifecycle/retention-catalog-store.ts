import { sql } from 'kysely';
import type { Protection } from './backup-protection-store.js';
import type { ScopeKey } from '../backup-scope-store.js';
import type { TreeDb } from '../../data/tree-db.js';
// The drills' table type is declared (merged into Database) there.
import type {} from '../drills/restore-drill-store.js';
// The lifecycle tables' types are declared (merged into Database) there.
import type {} from './backup-lifecycle-store.js';

/**
 * A scope's backups as retention plans over them, in columns (entry i of each is backup i), in no
 * particular order. Names are not read: a preview shows a page of them (backupNames).
 */
export interface ScopeCatalogColumns {
  ids: string[];
  createdAt: Float64Array;
  /** '' for a full. */
  baseIds: string[];
  /** '' outside a set. */
  setIds: string[];
  byteSizes: Float64Array;
  /** Of the scope's protected backups (few). */
  protections: Protection[];
  /** The scope's backups a check found damaged (few). */
  damaged: DamagedBackup[];
  /** The scope's backups whose latest restore drill proved them restorable (few). */
  proven: string[];
}

/** A backup whose last check found it damaged: retention never counts it. */
export interface DamagedBackup {
  backupId: string;
  /** CORRUPT, MISSING or DEGRADED. */
  status: string;
  /** When a check first found it damaged. */
  since: number;
}

/** A backup's health as a preview shows it. */
export interface BackupHealthFacts {
  /** HEALTHY, DEGRADED, CORRUPT, MISSING; null = never checked. */
  status: string | null;
  checkedAt: number | null;
  damagedSince: number | null;
}

/**
 * Numbers of a comma-separated text. Whole numbers are read digit by digit: splitting the text
 * first would make a string per backup only to parse it (a third of the read's time for 100 000
 * backups); anything else (a sign, a fraction) goes the slow way.
 */
export function parseNumbers(text: string, count: number): Float64Array {
  const out = new Float64Array(count);
  if (count === 0) return out;
  let k = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits += 1;
    } else if (c === 44 && digits > 0 && digits < 16 && k < count) {
      out[k++] = value;
      value = 0;
      digits = 0;
    } else {
      return slowNumbers(text, count);
    }
  }
  if (k !== count) throw new Error(`expected ${count} numbers, read ${k}`);
  return out;
}

function slowNumbers(text: string, count: number): Float64Array {
  const parts = text.split(',');
  const out = Float64Array.from(parts, Number);
  if (parts.length !== count || parts.some((p, i) => p.trim() === '' || !Number.isFinite(out[i]))) {
    throw new Error(`expected ${count} numbers: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return out;
}

function strings(text: string | null, count: number): string[] {
  return count === 0 ? [] : (text ?? '').split(',');
}

/**
 * Every backup of a scope (its tree, and exactly its key prefix: '' is the whole tree), in one
 * statement: each column comes aggregated into one comma-separated text. Backup and set ids are
 * safe segments ([A-Za-z0-9._-]), so a comma never occurs in one. One row of five long texts
 * instead of 100 000 rows: the drivers spent more time building row objects than the databases
 * spent reading (index backups_by_scope covers every column read). All aggregates of one group
 * see its rows in the same order, so entry i of each text is the same backup.
 */
export async function readScopeCatalog(
  handle: TreeDb,
  scope: ScopeKey,
): Promise<ScopeCatalogColumns> {
  const concat = (column: ReturnType<typeof sql>) =>
    handle.dialect === 'postgres'
      ? sql<string | null>`string_agg(${column}::text, ',')`
      : sql<string | null>`group_concat(${column}, ',')`;
  const inScope = sql`tenant = ${scope.tenant} and tree_name = ${scope.treeName}
    and coalesce(key_prefix, '') = ${scope.keyPrefix}`;
  const { rows } = await sql<{
    n: number | string;
    ids: string | null;
    created: string | null;
    bases: string | null;
    sets: string | null;
    sizes: string | null;
  }>`select count(*) as n,
      ${concat(sql.ref('id'))} as ids,
      ${concat(sql.ref('created_at'))} as created,
      ${concat(sql`coalesce(base_backup_id, '')`)} as bases,
      ${concat(sql`coalesce(set_id, '')`)} as sets,
      ${concat(sql.ref('byte_size'))} as sizes
    from backups where ${inScope}`.execute(handle.db);
  const row = rows[0];
  const count = Number(row?.n ?? 0);
  const columns: ScopeCatalogColumns = {
    ids: strings(row?.ids ?? null, count),
    createdAt: parseNumbers(row?.created ?? '', count),
    baseIds: strings(row?.bases ?? null, count),
    setIds: strings(row?.sets ?? null, count),
    byteSizes: parseNumbers(row?.sizes ?? '', count),
    protections: [],
    damaged: [],
    proven: [],
  };
  for (const list of [columns.ids, columns.baseIds, columns.setIds]) {
    if (list.length !== count) {
      throw new Error(`a scope catalog column has ${list.length} entries for ${count} backups`);
    }
  }
  // Protections are few; read after the catalog (a protection made in between is seen, and the
  // fingerprint an apply checks covers protections, so a stale preview is refused either way).
  const protections = await handle.db
    .selectFrom('backup_protections as p')
    .innerJoin('backups as b', (join) =>
      join.onRef('b.tenant', '=', 'p.tenant').onRef('b.id', '=', 'p.backup_id'),
    )
    .select(['p.backup_id', 'p.protected_by', 'p.protected_at', 'p.reason'])
    .where('p.tenant', '=', scope.tenant)
    .where('b.tree_name', '=', scope.treeName)
    .where(sql<string>`coalesce(b.key_prefix, '')`, '=', scope.keyPrefix)
    .execute();
  columns.protections = protections.map((p) => ({
    backupId: p.backup_id,
    protectedBy: p.protected_by,
    protectedAt: Number(p.protected_at),
    reason: p.reason,
  }));
  // Damaged backups are few too, and read the same way (the fingerprint covers them).
  const damaged = await handle.db
    .selectFrom('backups')
    .select(['id', 'last_health_status', 'health_damaged_since', 'last_verified_at'])
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where(sql<string>`coalesce(key_prefix, '')`, '=', scope.keyPrefix)
    // Spelled as in the partial index backups_damaged (0022), literals and all, so both
    // databases see the query's rows are the index's.
    .where(sql<boolean>`last_health_status in ('CORRUPT', 'MISSING', 'DEGRADED')`)
    .execute();
  columns.damaged = damaged.map((d) => ({
    backupId: d.id,
    status: d.last_health_status ?? '',
    since: Number(d.health_damaged_since ?? d.last_verified_at ?? 0),
  }));
  columns.proven = await provenBackupIds(handle, scope);
  return columns;
}

/**
 * The scope's backups (still in the catalog) whose latest drill was PROVEN: a later FAILED drill
 * of the same backup takes its proof back. Read with the catalog, so the fingerprint an apply
 * checks covers proof, and a drill that ends after a preview makes that preview stale.
 */
export async function provenBackupIds(handle: TreeDb, scope: ScopeKey): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('backup_restore_drills as d')
    .innerJoin('backups as b', (join) =>
      join.onRef('b.tenant', '=', 'd.tenant').onRef('b.id', '=', 'd.backup_id'),
    )
    .select(['d.backup_id', 'd.outcome'])
    // The drills' own scope columns first (index backup_restore_drills_by_scope), then the
    // backup's, which are the same for every drill the engine records.
    .where('d.tenant', '=', scope.tenant)
    .where('d.tree_name', '=', scope.treeName)
    .where('d.key_prefix', '=', scope.keyPrefix)
    .where('b.tree_name', '=', scope.treeName)
    .where(sql<string>`coalesce(b.key_prefix, '')`, '=', scope.keyPrefix)
    .orderBy('d.finished_at', 'desc')
    .orderBy('d.operation_id', 'desc')
    .execute();
  const latest = new Map<string, string>();
  for (const r of rows) if (!latest.has(r.backup_id)) latest.set(r.backup_id, r.outcome);
  return [...latest].filter(([, outcome]) => outcome === 'PROVEN').map(([id]) => id);
}

/** The stored health of these backups of a tenant (absent ones are left out), 500 per query. */
export async function backupHealth(
  handle: TreeDb,
  tenant: string,
  backupIds: readonly string[],
): Promise<Map<string, BackupHealthFacts>> {
  const health = new Map<string, BackupHealthFacts>();
  for (let i = 0; i < backupIds.length; i += 500) {
    const rows = await handle.db
      .selectFrom('backups')
      .select(['id', 'last_health_status', 'last_verified_at', 'health_damaged_since'])
      .where('tenant', '=', tenant)
      .where('id', 'in', backupIds.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      health.set(r.id, {
        status: r.last_health_status,
        checkedAt: r.last_verified_at === null ? null : Number(r.last_verified_at),
        damagedSince: r.health_damaged_since === null ? null : Number(r.health_damaged_since),
      });
    }
  }
  return health;
}

/** The names of these backups of a tenant (absent ones are left out), 500 per query. */
export async function backupNames(
  handle: TreeDb,
  tenant: string,
  backupIds: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let i = 0; i < backupIds.length; i += 500) {
    const rows = await handle.db
      .selectFrom('backups')
      .select(['id', 'name'])
      .where('tenant', '=', tenant)
      .where('id', 'in', backupIds.slice(i, i + 500))
      .execute();
    for (const r of rows) names.set(r.id, r.name);
  }
  return names;
}

/**
 * The newest backup of a scope whose last check found it healthy (newest by creation time, equal
 * times by id, descending: the retention catalog's order), or undefined when none was verified.
 */
export async function newestVerifiedHealthy(
  handle: TreeDb,
  scope: ScopeKey,
): Promise<{ backupId: string; name: string } | undefined> {
  const row = await handle.db
    .selectFrom('backups')
    .select(['id', 'name'])
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where(sql<string>`coalesce(key_prefix, '')`, '=', scope.keyPrefix)
    .where('last_health_status', '=', 'HEALTHY')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { backupId: row.id, name: row.name };
}
