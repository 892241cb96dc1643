import { sql } from 'kysely';
import type { AuditRecordsTable } from '../database-schema.js';
import { sqliteStatement, withTransaction, type TreeDb } from '../data/tree-db.js';

/** One audit record as the engines see it (times in epoch ms). */
export interface AuditRecord {
  id: string;
  at: number;
  tenant: string;
  subject: string;
  service: string;
  method: string;
  targetId: string | null;
  /** The target's name as it was, kept for a target the call destroys (a deleted backup). */
  targetName?: string | null;
  outcome: string;
  clientAddress: string;
  detail: string;
}

/** Which records a page holds: one tenant's (plus unscoped ones when asked), newest first. */
export interface AuditQuery {
  tenant: string;
  /** Also the records that named no tenant (tenant ''). */
  includeUnscoped: boolean;
  subject?: string | undefined;
  method?: string | undefined;
  outcome?: string | undefined;
  /** Inclusive lower and exclusive upper bound on the time. */
  since?: number | undefined;
  until?: number | undefined;
  /** The last record of the previous page. */
  after?: { at: number; id: string } | undefined;
  limit: number;
  /**
   * Characters read of each text column at most: the rest never leaves the database, so rows
   * stored before the write-side limits (megabytes in one field) cost no more than new ones.
   */
  fieldMax: Readonly<Record<AuditTextColumn, number>>;
}

/** The text fields a page reads cut (their record names). */
export type AuditTextColumn =
  'tenant' | 'subject' | 'service' | 'method' | 'targetId' | 'outcome' | 'clientAddress' | 'detail';

const TEXT_COLUMNS: Readonly<Record<AuditTextColumn, keyof AuditRecordsTable>> = {
  tenant: 'tenant',
  subject: 'subject',
  service: 'service',
  method: 'method',
  targetId: 'target_id',
  outcome: 'outcome',
  clientAddress: 'client_address',
  detail: 'detail',
};

/** A record read with each text field cut to its fieldMax, and the lengths stored. */
export interface AuditRow {
  record: AuditRecord;
  /** Each text field's length as stored (characters), to mark the ones cut on read. */
  storedLengths: Record<AuditTextColumn, number>;
}

const COLUMNS =
  'id, at, tenant, subject, service, method, target_id, outcome, client_address, detail, target_name';

/** Every query on audit_records. */
export class AuditStore {
  constructor(private readonly storage: TreeDb) {}

  /**
   * Adds records in one statement a batch (PostgreSQL: one array per column through unnest;
   * SQLite: one prepared insert run per record in one transaction). A query builder's
   * multi-row VALUES cost ~20 µs a record to build, more than the put it records.
   */
  async insert(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    const handle = this.storage;
    if (handle.dialect === 'sqlite') {
      await withTransaction(handle, async (tx) => {
        const insert = sqliteStatement(
          tx,
          `insert into audit_records (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const r of records) {
          insert.run(
            r.id,
            r.at,
            r.tenant,
            r.subject,
            r.service,
            r.method,
            r.targetId,
            r.outcome,
            r.clientAddress,
            r.detail,
            r.targetName ?? null,
          );
        }
      });
      return;
    }
    const column = <T>(pick: (r: AuditRecord) => T) => records.map(pick);
    await sql`insert into audit_records (${sql.raw(COLUMNS)})
      select * from unnest(
        ${column((r) => r.id)}::text[], ${column((r) => r.at)}::bigint[],
        ${column((r) => r.tenant)}::text[], ${column((r) => r.subject)}::text[],
        ${column((r) => r.service)}::text[], ${column((r) => r.method)}::text[],
        ${column((r) => r.targetId)}::text[], ${column((r) => r.outcome)}::text[],
        ${column((r) => r.clientAddress)}::text[], ${column((r) => r.detail)}::text[],
        ${column((r) => r.targetName ?? null)}::text[])`.execute(handle.db);
  }

  /** One page, newest first; `limit` rows at most, text fields cut to `fieldMax`. */
  async list(query: AuditQuery): Promise<AuditRow[]> {
    let select = this.storage.db
      .selectFrom('audit_records')
      .select(['id', 'at', 'target_name'])
      .select(
        Object.entries(TEXT_COLUMNS).flatMap(([field, column]) => [
          // substr and length count characters on both SQLite and PostgreSQL.
          sql<
            string | null
          >`substr(${sql.ref(column)}, 1, ${sql.lit(query.fieldMax[field as AuditTextColumn])})`.as(
            field,
          ),
          sql<number | string | null>`length(${sql.ref(column)})`.as(`${field}Length`),
        ]),
      )
      .where((eb) =>
        query.includeUnscoped
          ? eb.or([eb('tenant', '=', query.tenant), eb('tenant', '=', '')])
          : eb('tenant', '=', query.tenant),
      );
    if (query.subject) select = select.where('subject', '=', query.subject);
    if (query.method) select = select.where('method', '=', query.method);
    if (query.outcome) select = select.where('outcome', '=', query.outcome);
    if (query.since !== undefined) select = select.where('at', '>=', query.since);
    if (query.until !== undefined) select = select.where('at', '<', query.until);
    const after = query.after;
    if (after) {
      select = select.where((eb) =>
        eb.or([
          eb('at', '<', after.at),
          eb.and([eb('at', '=', after.at), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = (await select
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute()) as unknown as Record<string, unknown>[];
    return rows.map((row) => {
      const text = (field: AuditTextColumn) => String(row[field] ?? '');
      const storedLengths = Object.fromEntries(
        Object.keys(TEXT_COLUMNS).map((field) => [field, Number(row[`${field}Length`] ?? 0)]),
      ) as Record<AuditTextColumn, number>;
      return {
        record: {
          id: String(row.id),
          at: Number(row.at),
          tenant: text('tenant'),
          subject: text('subject'),
          service: text('service'),
          method: text('method'),
          targetId: row.targetId === null ? null : text('targetId'),
          outcome: text('outcome'),
          clientAddress: text('clientAddress'),
          detail: text('detail'),
          // Cut to its limit when written (audit-fields.ts), so read whole.
          ...(typeof row.target_name === 'string' && { targetName: row.target_name }),
        },
        storedLengths,
      };
    });
  }

  /** Deletes records older than `before`; returns how many. */
  async deleteBefore(before: number): Promise<number> {
    const result = await this.storage.db
      .deleteFrom('audit_records')
      .where('at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
