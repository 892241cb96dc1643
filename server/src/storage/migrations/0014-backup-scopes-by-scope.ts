import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/** A backup_scopes row of 0006: one per tree, each schedule with its own key prefix. */
interface TreeScopeRow {
  tenant: string;
  tree_name: string;
  full_interval_ms: number | null;
  full_key_prefix: string | null;
  full_next_run_at: number | null;
  incremental_interval_ms: number | null;
  incremental_key_prefix: string | null;
  incremental_next_run_at: number | null;
  last_full_run_at: number | null;
  last_full_success_at: number | null;
  last_incremental_run_at: number | null;
  last_incremental_success_at: number | null;
  last_outcome: string;
  updated_at: number;
}

/** The same row keyed by the whole scope (tree + key prefix). */
type ScopeRow = Omit<TreeScopeRow, 'full_key_prefix' | 'incremental_key_prefix'> & {
  key_prefix: string;
};

function emptyScopeRow(tenant: string, treeName: string, keyPrefix: string, now: number) {
  return {
    tenant,
    tree_name: treeName,
    key_prefix: keyPrefix,
    full_interval_ms: null,
    full_next_run_at: null,
    incremental_interval_ms: null,
    incremental_next_run_at: null,
    last_full_run_at: null,
    last_full_success_at: null,
    last_incremental_run_at: null,
    last_incremental_success_at: null,
    last_outcome: 'NONE',
    updated_at: now,
  } satisfies ScopeRow;
}

/**
 * The rows of one old tree row: the tree's run status and its unprefixed schedules go to the
 * scope with an empty key prefix; a schedule registered with a key prefix moves to that scope,
 * so it goes on capturing what it captured.
 */
export function scopeRowsOf(old: TreeScopeRow): ScopeRow[] {
  const { full_key_prefix, incremental_key_prefix, ...kept } = old;
  const whole: ScopeRow = { ...kept, key_prefix: '' };
  const rows = new Map<string, ScopeRow>([['', whole]]);
  const rowOf = (prefix: string) => {
    let row = rows.get(prefix);
    if (!row) {
      row = emptyScopeRow(old.tenant, old.tree_name, prefix, old.updated_at);
      rows.set(prefix, row);
    }
    return row;
  };
  const fullPrefix = full_key_prefix ?? '';
  if (old.full_interval_ms !== null && fullPrefix !== '') {
    Object.assign(rowOf(fullPrefix), {
      full_interval_ms: old.full_interval_ms,
      full_next_run_at: old.full_next_run_at,
    });
    Object.assign(whole, { full_interval_ms: null, full_next_run_at: null });
  }
  const incrementalPrefix = incremental_key_prefix ?? '';
  if (old.incremental_interval_ms !== null && incrementalPrefix !== '') {
    Object.assign(rowOf(incrementalPrefix), {
      incremental_interval_ms: old.incremental_interval_ms,
      incremental_next_run_at: old.incremental_next_run_at,
    });
    Object.assign(whole, { incremental_interval_ms: null, incremental_next_run_at: null });
  }
  return [...rows.values()];
}

/**
 * Backup schedules keyed by the whole scope (spec 000: ScheduleBackup, CancelSchedule and
 * GetScopeStatus name a scope, tree and key prefix): two prefixes of one tree are two schedules
 * with their own cadence and run status. backup_scopes is rebuilt with key_prefix ('' for the
 * whole tree) in its primary key; every existing row carries over (see scopeRowsOf).
 */
export function backupScopesByScope(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const old = db as unknown as Kysely<{ backup_scopes: TreeScopeRow }>;
      // Only compared with null, never computed with: pg's int64 strings pass through as read.
      const rows = (await old.selectFrom('backup_scopes').selectAll().execute()).flatMap(
        scopeRowsOf,
      );
      await db.schema.dropTable('backup_scopes').execute();
      await db.schema
        .createTable('backup_scopes')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', text, (c) => c.notNull())
        .addColumn('full_interval_ms', big)
        .addColumn('full_next_run_at', big)
        .addColumn('incremental_interval_ms', big)
        .addColumn('incremental_next_run_at', big)
        .addColumn('last_full_run_at', big)
        .addColumn('last_full_success_at', big)
        .addColumn('last_incremental_run_at', big)
        .addColumn('last_incremental_success_at', big)
        .addColumn('last_outcome', 'text', (c) => c.notNull().defaultTo('NONE'))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_scopes_pk', ['tenant', 'tree_name', 'key_prefix'])
        .execute();
      const scopes = db as unknown as Kysely<{ backup_scopes: ScopeRow }>;
      for (let i = 0; i < rows.length; i += 500) {
        await scopes
          .insertInto('backup_scopes')
          .values(rows.slice(i, i + 500))
          .execute();
      }
    },
  };
}
