import type { Storage } from '../database.js';

/**
 * The backup figures a metrics scrape reads: every one a GROUP BY aggregate across tenants read
 * from an index alone, one row per tenant and health, per tree, per set name: a scrape never
 * reads the backups' rows, and the per-scope series are bounded to the first `maxScopes`.
 */

/**
 * A backup scope as the metrics label it: a tenant's tree (its key-prefix scopes together), or
 * `set:<name>` for the backup sets of that name (spanning two or more trees; their members are
 * their trees' backups too). A tree name has no `:`, so the two never meet.
 */
export interface ScopeKeyReading {
  tenant: string;
  treeName: string;
}

/** The metrics scope of the backup sets named `name`. */
export const SET_SCOPE_PREFIX = 'set:';

export interface ScopeReading extends ScopeKeyReading {
  /** End of the newest full or incremental backup of the tree; null: none yet. */
  lastSuccessAt: number | null;
  /** End of the oldest backup of the scope in the catalog; null: none. */
  oldestBackupAt: number | null;
  /** The shortest active cadence of each kind over the tree's scopes; null: none. */
  fullIntervalMs: number | null;
  incrementalIntervalMs: number | null;
}

export interface TenantCatalogReading {
  tenant: string;
  healthy: number;
  /** CORRUPT or DEGRADED: a check found it damaged. */
  corrupt: number;
  missing: number;
  /** Never checked. */
  unverified: number;
  bytes: number;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/**
 * The first `maxScopes` scopes (by tenant, then scope name) with their newest backup and
 * cadences, and how many scopes there are in all: a tree with a backup or an active schedule, and
 * a set name. Three grouped reads, each answered by an index alone (backups_by_tree,
 * backups_of_sets_by_name, the scopes' primary key): one row per tree, set name and scheduled
 * tree, never one per backup; the union and the bound are applied here.
 */
export async function readScopes(
  storage: Storage,
  maxScopes: number,
): Promise<{ scopes: ScopeReading[]; total: number }> {
  const [trees, sets, cadences] = await Promise.all([
    // Every catalog row is a full or an incremental: no filter on kind.
    storage.db
      .selectFrom('backups')
      .groupBy(['tenant', 'tree_name'])
      .select((eb) => [
        'tenant',
        'tree_name',
        eb.fn.max('completed_at').as('last_success'),
        eb.fn.min('completed_at').as('oldest'),
      ])
      .execute(),
    storage.db
      .selectFrom('backups')
      .where('set_id', 'is not', null)
      .groupBy(['tenant', 'name'])
      .select((eb) => [
        'tenant',
        'name',
        eb.fn.max('completed_at').as('last_success'),
        eb.fn.min('completed_at').as('oldest'),
      ])
      .execute(),
    storage.db
      .selectFrom('backup_scopes')
      .groupBy(['tenant', 'tree_name'])
      .select((eb) => [
        'tenant',
        'tree_name',
        eb.fn.min('full_interval_ms').as('full_interval'),
        eb.fn.min('incremental_interval_ms').as('incremental_interval'),
      ])
      .execute(),
  ]);
  const found = new Map<string, ScopeReading>();
  const scopeOf = (tenant: string, treeName: string): ScopeReading => {
    const key = JSON.stringify([tenant, treeName]);
    let scope = found.get(key);
    if (!scope) {
      scope = {
        tenant,
        treeName,
        lastSuccessAt: null,
        oldestBackupAt: null,
        fullIntervalMs: null,
        incrementalIntervalMs: null,
      };
      found.set(key, scope);
    }
    return scope;
  };
  for (const row of trees) {
    const scope = scopeOf(row.tenant, row.tree_name);
    scope.lastSuccessAt = numOrNull(row.last_success);
    scope.oldestBackupAt = numOrNull(row.oldest);
  }
  for (const row of sets) {
    const scope = scopeOf(row.tenant, `${SET_SCOPE_PREFIX}${row.name}`);
    scope.lastSuccessAt = numOrNull(row.last_success);
    scope.oldestBackupAt = numOrNull(row.oldest);
  }
  for (const row of cadences) {
    const full = numOrNull(row.full_interval);
    const incremental = numOrNull(row.incremental_interval);
    // A tree whose schedules are all cancelled, and that has no backup, is no scope.
    if (full === null && incremental === null) continue;
    const scope = scopeOf(row.tenant, row.tree_name);
    scope.fullIntervalMs = full;
    scope.incrementalIntervalMs = incremental;
  }
  const all = [...found.values()].sort(byTenantThenName);
  return { scopes: maxScopes > 0 ? all.slice(0, maxScopes) : [], total: all.length };
}

/** By tenant, then scope name, in code-unit order: the same choice on either database. */
function byTenantThenName(a: ScopeKeyReading, b: ScopeKeyReading): number {
  if (a.tenant !== b.tenant) return a.tenant < b.tenant ? -1 : 1;
  if (a.treeName !== b.treeName) return a.treeName < b.treeName ? -1 : 1;
  return 0;
}

/** The health column's values as the metrics count them (any other value counts only in bytes). */
const HEALTH_OF: Readonly<Record<string, keyof Omit<TenantCatalogReading, 'tenant' | 'bytes'>>> = {
  HEALTHY: 'healthy',
  CORRUPT: 'corrupt',
  DEGRADED: 'corrupt',
  MISSING: 'missing',
};

/**
 * Per tenant with backups: how many by health, and their bytes. Grouped by the health column
 * too, so it reads the (tenant, health, bytes) index alone, never the rows and their manifests.
 */
export async function readCatalogByTenant(storage: Storage): Promise<TenantCatalogReading[]> {
  const rows = await storage.db
    .selectFrom('backups')
    .groupBy(['tenant', 'last_health_status'])
    .select((eb) => [
      'tenant',
      'last_health_status',
      eb.fn.countAll().as('n'),
      eb.fn.sum<number>('byte_size').as('bytes'),
    ])
    .orderBy('tenant')
    .execute();
  const byTenant = new Map<string, TenantCatalogReading>();
  for (const row of rows) {
    let tenant = byTenant.get(row.tenant);
    if (!tenant) {
      tenant = { tenant: row.tenant, healthy: 0, corrupt: 0, missing: 0, unverified: 0, bytes: 0 };
      byTenant.set(row.tenant, tenant);
    }
    const health =
      row.last_health_status === null ? 'unverified' : HEALTH_OF[row.last_health_status];
    if (health) tenant[health] += num(row.n);
    tenant.bytes += num(row.bytes);
  }
  return [...byTenant.values()];
}
