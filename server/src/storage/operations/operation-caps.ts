import { sql, type ExpressionBuilder } from 'kysely';
import type { Storage } from '../database.js';
import type { Database } from '../database-schema.js';
import type { NewOperationRow, OperationRow } from './operation-store.js';

/**
 * At most `limit` of the tenant's operations of `kinds` (or, with `otherKinds`, of every kind
 * not listed) may be QUEUED or RUNNING at once.
 */
export interface OperationCap {
  kinds: readonly string[];
  otherKinds?: boolean;
  limit: number;
}

type Eb = ExpressionBuilder<Database, 'operations'>;

function ofCap(eb: Eb, cap: Pick<OperationCap, 'kinds' | 'otherKinds'>) {
  return cap.otherKinds ? eb('kind', 'not in', [...cap.kinds]) : eb('kind', 'in', [...cap.kinds]);
}

/** What a capped insert did: stored the row, found the tracking id's row, or refused. */
export type CappedInsert =
  | { outcome: 'inserted'; row: OperationRow }
  | { outcome: 'existing'; row: OperationRow }
  | { outcome: 'refused'; active: number };

const DEFAULT_RECENT_MS = 10_000;
const RECENT_SAMPLE = 20;

/**
 * Inserts the operation unless the tenant already has `cap.limit` operations of the cap's kinds
 * queued or running. A tracking id the tenant already used answers with its operation before
 * the cap is looked at: the same request sent again gets its handle back, even at the cap.
 *
 * The count and the insert run in one transaction that holds a per-tenant lock, so concurrent
 * submits cannot both see room for one: SQLite's `BEGIN IMMEDIATE` takes the database's write
 * lock; PostgreSQL takes a transaction-scoped advisory lock on the tenant (other replicas
 * included). Submits of one tenant in this process first queue in memory (`tenantTurns`), so
 * a flood of them waits without holding pooled connections that other tenants' calls need.
 */
export class OperationCapStore {
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly storage: Storage) {}

  async insertWithinCap(op: NewOperationRow, cap: OperationCap): Promise<CappedInsert> {
    if (op.tracking_id !== null) {
      const existing = await this.byTrackingId(op.tenant, op.tracking_id);
      if (existing) return { outcome: 'existing', row: existing };
    }
    return this.inTenantTurn(op.tenant, () =>
      this.storage.db.transaction().execute(async (trx) => {
        if (this.storage.dialect === 'postgres') {
          await sql`select pg_advisory_xact_lock(hashtext(${`operation-cap/${op.tenant}`}))`.execute(
            trx,
          );
        }
        const { active } = await trx
          .selectFrom('operations')
          .select((eb) => eb.fn.countAll<number | string>().as('active'))
          .where('tenant', '=', op.tenant)
          .where('state', 'in', ['QUEUED', 'RUNNING'])
          .where((eb) => ofCap(eb, cap))
          .executeTakeFirstOrThrow();
        if (Number(active) >= cap.limit) return { outcome: 'refused', active: Number(active) };
        const row = await trx
          .insertInto('operations')
          .values(newRowValues(op))
          .onConflict((oc) => oc.columns(['tenant', 'tracking_id']).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (row) return { outcome: 'inserted', row };
        // Another submit with the same tracking id won between the first read and the insert.
        const winner = await trx
          .selectFrom('operations')
          .selectAll()
          .where('tenant', '=', op.tenant)
          .where('tracking_id', '=', op.tracking_id)
          .executeTakeFirstOrThrow();
        return { outcome: 'existing', row: winner };
      }),
    );
  }

  /**
   * Seconds until one of the tenant's capped operations likely ends: the mean length of its
   * last finished operations of these kinds (10 s when it has none) less how long its oldest
   * running one has run, at least 1 s. An estimate for the caller's retry, not a promise.
   */
  async retryEstimateSeconds(tenant: string, cap: OperationCap, now: number) {
    const recent = await this.storage.db
      .selectFrom('operations')
      .select(['started_at', 'finished_at'])
      .where('tenant', '=', tenant)
      .where((eb) => ofCap(eb, cap))
      .where('state', 'in', ['SUCCEEDED', 'FAILED', 'CANCELLED'])
      .where('started_at', 'is not', null)
      .orderBy('created_at', 'desc')
      .limit(RECENT_SAMPLE)
      .execute();
    const lengths = recent.map((r) => Number(r.finished_at) - Number(r.started_at));
    const mean =
      lengths.length > 0 ? lengths.reduce((a, b) => a + b, 0) / lengths.length : DEFAULT_RECENT_MS;
    const oldest = await this.storage.db
      .selectFrom('operations')
      .select((eb) => eb.fn.min('started_at').as('started'))
      .where('tenant', '=', tenant)
      .where((eb) => ofCap(eb, cap))
      .where('state', '=', 'RUNNING')
      .executeTakeFirst();
    const ranMs = oldest?.started == null ? 0 : Math.max(0, now - Number(oldest.started));
    return Math.max(1, Math.ceil((mean - ranMs) / 1000));
  }

  private byTrackingId(tenant: string, trackingId: string) {
    return this.storage.db
      .selectFrom('operations')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('tracking_id', '=', trackingId)
      .executeTakeFirst();
  }

  /** Runs `fn` after the tenant's earlier capped inserts in this process have settled. */
  private async inTenantTurn<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
    const before = this.turns.get(tenant) ?? Promise.resolve();
    const mine = before.then(fn, fn);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(tenant, settled);
    try {
      return await mine;
    } finally {
      // The last in line clears the entry, so the map holds only tenants submitting now.
      if (this.turns.get(tenant) === settled) this.turns.delete(tenant);
    }
  }
}

/** A submitted row as first stored: queued, no progress, no attempts. */
export function newRowValues(op: NewOperationRow) {
  return {
    ...op,
    state: 'QUEUED' as const,
    progress_done: 0,
    progress_total: 0,
    progress_unit: '',
    progress_message: '',
    updated_at: op.created_at,
    cancel_requested: 0,
    attempts: 0,
  };
}
