import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../database-schema.js';
import type { Storage } from '../database.js';

/**
 * The backup figures a metrics scrape reads: every one a GROUP BY aggregate across tenants, and
 * the per-scope ones bounded to the first `maxScopes` scopes (by tenant and tree), so a scrape
 * costs the same however many trees a tenant has.
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

type ScopeTables = 'backups' | 'backup_scopes';

/**
 * Scopes that exist for the metrics: a tree with a backup, or with an active schedule, and the
 * name of a backup set (only a set of two or more trees has a set id, spec 000 rule 1).
 */
function scopeKeys(storage: Storage) {
  return storage.db
    .selectFrom('backups')
    .select(['tenant', 'tree_name'])
    .union(
      storage.db
        .selectFrom('backups')
        .where('set_id', 'is not', null)
        .select(['tenant', sql<string>`${SET_SCOPE_PREFIX} || name`.as('tree_name')]),
    )
    .union(
      storage.db
        .selectFrom('backup_scopes')
        .select(['tenant', 'tree_name'])
        .where((eb) =>
          eb.or([
            eb('full_interval_ms', 'is not', null),
            eb('incremental_interval_ms', 'is not', null),
          ]),
        ),
    );
}

/** (tenant, tree_name) ≤ last, in the order the scopes were chosen in. */
function upTo<T extends ScopeTables>(
  last: ScopeKeyReading,
): (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool> {
  return (eb) => {
    const ref = eb as unknown as ExpressionBuilder<Database, 'backups'>;
    return ref.or([
      ref('tenant', '<', last.tenant),
      ref.and([ref('tenant', '=', last.tenant), ref('tree_name', '<=', last.treeName)]),
    ]);
  };
}

/**
 * The first `maxScopes` scopes (by tenant, then tree) with their newest backup and cadences, and
 * how many scopes there are in all.
 */
export async function readScopes(
  storage: Storage,
  maxScopes: number,
): Promise<{ scopes: ScopeReading[]; total: number }> {
  const totalRow = await storage.db
    .selectFrom(scopeKeys(storage).as('s'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const total = num(totalRow?.n);
  if (maxScopes <= 0 || total === 0) return { scopes: [], total };
  const keys = await storage.db
    .selectFrom(scopeKeys(storage).as('s'))
    .select(['s.tenant', 's.tree_name'])
    .orderBy('s.tenant')
    .orderBy('s.tree_name')
    .limit(maxScopes)
    .execute();
  const lastKey = keys.at(-1);
  if (!lastKey) return { scopes: [], total };
  const last = { tenant: lastKey.tenant, treeName: lastKey.tree_name };
  const [successes, setSuccesses, cadences] = await Promise.all([
    storage.db
      .selectFrom('backups')
      .where('kind', 'in', ['FULL', 'INCREMENTAL'])
      .where(upTo<'backups'>(last))
      .groupBy(['tenant', 'tree_name'])
      .select((eb) => ['tenant', 'tree_name', eb.fn.max('completed_at').as('last_success')])
      .execute(),
    // Few names (a set's name is chosen per capture), each the newest completion of its members.
    storage.db
      .selectFrom('backups')
      .where('set_id', 'is not', null)
      .groupBy(['tenant', 'name'])
      .select((eb) => [
        'tenant',
        sql<string>`${SET_SCOPE_PREFIX} || name`.as('tree_name'),
        eb.fn.max('completed_at').as('last_success'),
      ])
      .execute(),
    storage.db
      .selectFrom('backup_scopes')
      .where(upTo<'backup_scopes'>(last))
      .groupBy(['tenant', 'tree_name'])
      .select((eb) => [
        'tenant',
        'tree_name',
        eb.fn.min('full_interval_ms').as('full_interval'),
        eb.fn.min('incremental_interval_ms').as('incremental_interval'),
      ])
      .execute(),
  ]);
  const keyOf = (tenant: string, tree: string) => JSON.stringify([tenant, tree]);
  const successOf = new Map(
    [...successes, ...setSuccesses].map((row) => [
      keyOf(row.tenant, row.tree_name),
      numOrNull(row.last_success),
    ]),
  );
  const cadenceOf = new Map(cadences.map((row) => [keyOf(row.tenant, row.tree_name), row]));
  const scopes = keys.map((key): ScopeReading => {
    const id = keyOf(key.tenant, key.tree_name);
    const cadence = cadenceOf.get(id);
    return {
      tenant: key.tenant,
      treeName: key.tree_name,
      lastSuccessAt: successOf.get(id) ?? null,
      fullIntervalMs: numOrNull(cadence?.full_interval),
      incrementalIntervalMs: numOrNull(cadence?.incremental_interval),
    };
  });
  return { scopes, total };
}

const countWhen = (condition: Expression<SqlBool>) =>
  sql<number>`sum(case when ${condition} then 1 else 0 end)`;

/** Per tenant with backups: how many by health, and their bytes. */
export async function readCatalogByTenant(storage: Storage): Promise<TenantCatalogReading[]> {
  const rows = await storage.db
    .selectFrom('backups')
    .groupBy('tenant')
    .select((eb) => [
      'tenant',
      countWhen(eb('last_health_status', '=', 'HEALTHY')).as('healthy'),
      countWhen(eb('last_health_status', 'in', ['CORRUPT', 'DEGRADED'])).as('corrupt'),
      countWhen(eb('last_health_status', '=', 'MISSING')).as('missing'),
      countWhen(eb('last_health_status', 'is', null)).as('unverified'),
      eb.fn.sum<number>('byte_size').as('bytes'),
    ])
    .orderBy('tenant')
    .execute();
  return rows.map((row) => ({
    tenant: row.tenant,
    healthy: num(row.healthy),
    corrupt: num(row.corrupt),
    missing: num(row.missing),
    unverified: num(row.unverified),
    bytes: num(row.bytes),
  }));
}
