import type { Selectable } from 'kysely';
import type { AuditRecordsTable } from './schema.js';
import type { TreeDb } from './tree-db.js';

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

// Rows per INSERT: far below SQLite's 32 766 bound variables (10 columns a row).
const INSERT_CHUNK = 500;

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

  /** Adds records in as few statements as possible (the writer batches a turn's records). */
  async insert(records: readonly AuditRecord[]): Promise<void> {
    for (let start = 0; start < records.length; start += INSERT_CHUNK) {
      const chunk = records.slice(start, start + INSERT_CHUNK);
      await this.storage.db
        .insertInto('audit_records')
        .values(
          chunk.map((r) => ({
            id: r.id,
            at: r.at,
            tenant: r.tenant,
            subject: r.subject,
            service: r.service,
            method: r.method,
            target_id: r.targetId,
            outcome: r.outcome,
            client_address: r.clientAddress,
            detail: r.detail,
          })),
        )
        .execute();
    }
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
