import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * Each physical tree keeps the count and the bytes (UTF-8 of key and value) of its live entries,
 * so ListTrees reads a page of trees without counting their entries (issue 37: a correlated
 * count(*) took 1.2–2.1 s for a tenant of 5.2 M entries, during which SQLite answered nothing).
 *
 * Triggers on `entries` keep them, not the writers: every write of an entry (group commit,
 * deletes, restore installs and COPY loads, schema rewrites, drops) changes the counters in its
 * own statement, hence its own transaction, so a crash at any point leaves them exact, and a
 * writer added later cannot forget them. PostgreSQL: statement triggers over transition tables,
 * one update of the physical tree's row per statement — a row its writer has already locked
 * (the sequence is taken there), so no new point of contention. SQLite: row triggers (it has no
 * others), a primary-key update in-process per changed live row.
 *
 * Existing trees are counted here, in one transaction with the columns and triggers: a crash
 * midway leaves the migration undone, to run again whole (Kysely's migrator opens that
 * transaction on PostgreSQL; on SQLite, where it opens none, this migration does).
 */
export function keptEntryCounts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await addCounters(db, dialect);
      else await db.transaction().execute((trx) => addCounters(trx, dialect));
    },
  };
}

async function addCounters(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const column of ['live_entries', 'live_bytes']) {
    await db.schema
      .alterTable('physical_trees')
      .addColumn(column, int64(dialect), (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (dialect === 'postgres') await postgresCounters(db);
  else await sqliteCounters(db);
}

async function postgresCounters(db: Kysely<unknown>): Promise<void> {
  await sql`
    update physical_trees p set live_entries = c.n, live_bytes = c.b
    from (
      select physical_tree_id, count(*) as n,
        sum(octet_length(key) + coalesce(octet_length(value_json), 0)) as b
      from entries where tombstone = 0 group by physical_tree_id
    ) as c
    where p.id = c.physical_tree_id
  `.execute(db);
  // One function per event: PostgreSQL allows transition tables on single-event triggers only.
  // `sign` is +1 for rows that arrive, −1 for rows that leave; an update is both.
  const change = (rows: string) => `
    select physical_tree_id as id, ${rows === 'old_rows' ? -1 : 1} as sign, count(*) as n,
      sum(octet_length(key) + coalesce(octet_length(value_json), 0)) as b
    from ${rows} where tombstone = 0 group by physical_tree_id`;
  const body = (changes: string) => `
    begin
      update physical_trees p
      set live_entries = p.live_entries + d.n, live_bytes = p.live_bytes + d.b
      from (
        select id, sum(sign * n) as n, sum(sign * b) as b from (${changes}) as c group by id
      ) as d
      where p.id = d.id and (d.n <> 0 or d.b <> 0);
      return null;
    end`;
  const events = [
    { event: 'insert', referencing: 'new table as new_rows', changes: change('new_rows') },
    { event: 'delete', referencing: 'old table as old_rows', changes: change('old_rows') },
    {
      event: 'update',
      referencing: 'old table as old_rows new table as new_rows',
      changes: `${change('old_rows')} union all ${change('new_rows')}`,
    },
  ];
  for (const { event, referencing, changes } of events) {
    const name = `entries_count_${event}`;
    await sql
      .raw(
        // The store's schema as the migration sees it, not the writing session's search_path:
        // a write from a session that looks elsewhere (a DBA's psql) still counts here.
        `create function ${name}() returns trigger language plpgsql ` +
          `set search_path from current as $$${body(changes)}$$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${event} on entries referencing ${referencing} ` +
          `for each statement execute function ${name}()`,
      )
      .execute(db);
  }
}

async function sqliteCounters(db: Kysely<unknown>): Promise<void> {
  const bytes = (row: string) =>
    `length(cast(${row}.key as blob)) + coalesce(length(cast(${row}.value_json as blob)), 0)`;
  await sql
    .raw(
      `update physical_trees set
        live_entries = (select count(*) from entries e
          where e.physical_tree_id = physical_trees.id and e.tombstone = 0),
        live_bytes = (select coalesce(sum(${bytes('e')}), 0) from entries e
          where e.physical_tree_id = physical_trees.id and e.tombstone = 0)`,
    )
    .execute(db);
  const add = (row: string, sign: '+' | '-') =>
    `update physical_trees set live_entries = live_entries ${sign} 1,
      live_bytes = live_bytes ${sign} (${bytes(row)}) where id = ${row}.physical_tree_id;`;
  await sql
    .raw(
      `create trigger entries_count_insert after insert on entries
      when new.tombstone = 0 begin ${add('new', '+')} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger entries_count_delete after delete on entries
      when old.tombstone = 0 begin ${add('old', '-')} end`,
    )
    .execute(db);
  // Only the columns the counters depend on: a sequence or time stamp change fires nothing.
  await sql
    .raw(
      `create trigger entries_count_update
      after update of physical_tree_id, key, value_json, tombstone on entries
      when old.tombstone = 0 or new.tombstone = 0 begin
        update physical_trees set live_entries = live_entries - 1,
          live_bytes = live_bytes - (${bytes('old')})
          where id = old.physical_tree_id and old.tombstone = 0;
        update physical_trees set live_entries = live_entries + 1,
          live_bytes = live_bytes + (${bytes('new')})
          where id = new.physical_tree_id and new.tombstone = 0;
      end`,
    )
    .execute(db);
}
