import { sql, type Selectable } from 'kysely';
import type { AuditRecordsTable } from './schema.js';
import { sqliteStatement, withTransaction, type TreeDb } from './tree-db.js';

/** One audit record as the engines see it (times in epoch ms). */
export interface AuditRecord {
  id: string;
  at: number;
  tenant: string;
  subject: string;
  service: string;
  method: string;
  targetId: string | null;
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
}

const COLUMNS =
  'id, at, tenant, subject, service, method, target_id, outcome, client_address, detail';

const fromRow = (row: Selectable<AuditRecordsTable>): AuditRecord => ({
  id: row.id,
  at: Number(row.at),
  tenant: row.tenant,
  subject: row.subject,
  service: row.service,
  method: row.method,
  targetId: row.target_id,
  outcome: row.outcome,
  clientAddress: row.client_address,
  detail: row.detail,
});

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
          `insert into audit_records (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        ${column((r) => r.clientAddress)}::text[], ${column((r) => r.detail)}::text[])`.execute(
      handle.db,
    );
  }

  /** One page, newest first; `limit` rows at most. */
  async list(query: AuditQuery): Promise<AuditRecord[]> {
    let select = this.storage.db
      .selectFrom('audit_records')
      .selectAll()
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
    const rows = await select
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
    return rows.map(fromRow);
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
