import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
} from 'kysely';
import DataLoader from 'dataloader';
import type { Storage } from '../database.js';
import type { TreeDb } from '../data/tree-db.js';
import type { Database, OperationState, OperationsTable } from '../database-schema.js';

/** One row of `operations`, as stored. */
export type OperationRow = Selectable<OperationsTable>;

/** What a submit stores; everything else starts at its default (queued, no progress). */
export type NewOperationRow = Pick<
  OperationRow,
  | 'id'
  | 'tenant'
  | 'kind'
  | 'target_id'
  | 'tracking_id'
  | 'request_json'
  | 'request_fingerprint'
  | 'created_by'
  | 'created_at'
>;

/** Filters of a list; `kinds` is the caller's family already intersected with the request's. */
export interface OperationListQuery {
  states?: readonly string[] | undefined;
  kinds?: readonly string[] | undefined;
  targetId?: string | undefined;
  createdAfter?: number | undefined;
  /** Keyset: rows strictly after this one in (created_at desc, id desc) order. */
  after?: { createdAt: number; id: string } | undefined;
  limit: number;
}

/** Names one claim of one operation: writes succeed only while this claim still holds it. */
export interface LeaseKey {
  id: string;
  owner: string;
  attempt: number;
}

export interface ProgressColumns {
  done: number;
  total: number;
  unit: string;
  message: string;
}

/** How a run ended. */
export interface OperationOutcome {
  state: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  resultJson?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  progress?: ProgressColumns | undefined;
}

/** Which expired runs may be resumed; the others are failed by failOrphans. */
export interface ResumePolicy {
  resumableKinds: readonly string[];
  maxAttempts: number;
}

const TERMINAL: readonly OperationState[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
/** Cancel's fixed error, the same whether it stopped a queued or a running operation. */
export const CANCELLED_ERROR = { code: 'cancelled', message: 'the operation was cancelled' };
const INTERRUPTED = 'interrupted: the server running it stopped';

type Eb = ExpressionBuilder<Database, 'operations'>;
type Executable = { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> };

/** `kind in (...)`, which is never true for an empty list (SQL has no empty `in`). */
function kindIn(eb: Eb, kinds: readonly string[]): Expression<SqlBool> {
  return kinds.length === 0 ? sql<SqlBool>`1 = 0` : eb('kind', 'in', [...kinds]);
}

/** An expired run that may be claimed again: resumable, not cancelled, attempts left. */
function resumableOrphan(eb: Eb, now: number, policy: ResumePolicy): Expression<SqlBool> {
  return eb.and([
    eb('state', '=', 'RUNNING'),
    eb('lease_expires_at', '<', now),
    eb('cancel_requested', '=', 0),
    eb('attempts', '<', policy.maxAttempts),
    kindIn(eb, policy.resumableKinds),
  ]);
}

/**
 * Called in the transaction that ends an operation, with the ended row: what must be recorded
 * together with the end (the notification outbox) commits with it or not at all.
 */
export type OperationEndedHook = (tx: TreeDb, row: OperationRow) => Promise<void>;

/** Every query on `operations`. Guarded writes return whether they changed the row. */
export class OperationStore {
  /**
   * PostgreSQL: point reads by id that arrive in the same turn of the event loop go out as ONE
   * query. Under many pollers each read was a network round trip whose cost (two syscalls and a
   * backend wakeup) outweighed the query itself; batched, a busy server sends a fraction of
   * them, and an idle one waits no longer than a turn. SQLite reads are in-process: not batched.
   */
  private readonly byId: DataLoader<string, OperationRow | undefined> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly onEnded?: OperationEndedHook,
  ) {
    this.byId =
      storage.dialect === 'postgres'
        ? new DataLoader((ids) => this.readByIds(ids), {
            cache: false,
            maxBatchSize: 200,
            batchScheduleFn: (run) => setImmediate(run),
          })
        : undefined;
  }

  private get db() {
    return this.storage.db;
  }

  /**
   * Inserts unless the tenant already has an operation with this tracking id; either way returns
   * the row that holds the id. The unique index decides, so concurrent submits cannot both win.
   */
  async insertIfTrackingIdFree(
    op: NewOperationRow,
  ): Promise<{ row: OperationRow; inserted: boolean }> {
    const insertedRow = await this.db
      .insertInto('operations')
      .values({
        ...op,
        state: 'QUEUED',
        ...progressColumns({ done: 0, total: 0, unit: '', message: '' }),
        updated_at: op.created_at,
        cancel_requested: 0,
        attempts: 0,
      })
      .onConflict((oc) => oc.columns(['tenant', 'tracking_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (insertedRow) return { row: insertedRow, inserted: true };
    // Only a used tracking id skips the insert: that operation is the answer.
    const row = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('tenant', '=', op.tenant)
      .where('tracking_id', '=', op.tracking_id)
      .executeTakeFirstOrThrow();
    return { row, inserted: false };
  }

  /** The tenant's operation holding this tracking id, if any. */
  getByTrackingId(tenant: string, trackingId: string): Promise<OperationRow | undefined> {
    return this.db
      .selectFrom('operations')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('tracking_id', '=', trackingId)
      .executeTakeFirst();
  }

  /** The tenant's operation with this id, if its kind is among `kinds` (when given). */
  async get(
    tenant: string,
    id: string,
    kinds?: readonly string[],
  ): Promise<OperationRow | undefined> {
    const visible = (row: OperationRow | undefined) =>
      row?.tenant === tenant && (kinds === undefined || kinds.includes(row.kind)) ? row : undefined;
    if (this.byId) return visible(await this.byId.load(id));
    // The status poll's read: prepared once, without building the query each call.
    if (this.storage.sqlitePrepare) {
      return visible(
        this.storage.sqlitePrepare('select * from operations where id = ?').get(id) as
          OperationRow | undefined,
      );
    }
    return this.db
      .selectFrom('operations')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .$if(kinds !== undefined, (q) => q.where((eb) => kindIn(eb, kinds ?? [])))
      .executeTakeFirst();
  }

  private async readByIds(ids: readonly string[]): Promise<Array<OperationRow | undefined>> {
    const rows = await this.db
      .selectFrom('operations')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  }

  /** A page of the tenant's operations, newest first. */
  async list(tenant: string, query: OperationListQuery): Promise<OperationRow[]> {
    const { states, kinds, targetId, createdAfter, after } = query;
    return this.db
      .selectFrom('operations')
      .selectAll()
      .where('tenant', '=', tenant)
      .$if(kinds !== undefined, (q) => q.where((eb) => kindIn(eb, kinds ?? [])))
      .$if(states !== undefined && states.length > 0, (q) =>
        q.where('state', 'in', [...(states ?? [])] as OperationState[]),
      )
      .$if(targetId !== undefined, (q) => q.where('target_id', '=', targetId ?? ''))
      .$if(createdAfter !== undefined, (q) => q.where('created_at', '>', createdAfter ?? 0))
      .$if(after !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('created_at', '<', after?.createdAt ?? 0),
            eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '<', after?.id ?? '')]),
          ]),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
  }

  /**
   * Queued operations of these kinds to try to claim, fairest first: ordered by `share`, how
   * many operations their tenant would have running if this one started (its running ones, on
   * any replica, plus its place among its own queued ones), then oldest first. A tenant with
   * nothing running comes before one that runs operations, and tenants with work queued take
   * turns (max-min fairness, as in fair queueing); the worker breaks ties between tenants by
   * which it served least recently (tenant-turns.ts).
   */
  async findQueued(kinds: readonly string[], limit: number) {
    return this.db
      .with('queued', (db) =>
        db
          .selectFrom('operations')
          .select((eb) => [
            'id',
            'attempts',
            'kind',
            'tenant',
            'created_at',
            eb.fn
              .agg<number>('row_number')
              .over((ob) => ob.partitionBy('tenant').orderBy('created_at').orderBy('id'))
              .as('turn'),
          ])
          .where('state', '=', 'QUEUED')
          .where((eb) => kindIn(eb, kinds)),
      )
      .with('running', (db) =>
        db
          .selectFrom('operations')
          .select((eb) => ['tenant', eb.fn.countAll<number>().as('running')])
          .where('state', '=', 'RUNNING')
          .groupBy('tenant'),
      )
      .selectFrom('queued')
      .leftJoin('running', 'running.tenant', 'queued.tenant')
      .select([
        'queued.id',
        'queued.attempts',
        'queued.kind',
        'queued.tenant',
        'queued.created_at',
        sql<number>`coalesce(running.running, 0) + queued.turn`.as('share'),
      ])
      .orderBy('share')
      .orderBy('queued.created_at')
      .orderBy('queued.id')
      .limit(limit)
      .execute();
  }

  /** Running operations whose lease has expired: their runner stopped or stalled. */
  async findExpired(now: number, limit: number) {
    return this.db
      .selectFrom('operations')
      .select(['id', 'tenant', 'kind', 'attempts', 'cancel_requested', 'request_json'])
      .where('state', '=', 'RUNNING')
      .where('lease_expires_at', '<', now)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * Takes an operation if it is still as read (compare-and-set on `attempts`): queued, or an
   * expired resumable run. Exactly one of several claimers gets the row back. With `alone`
   * (kinds), only while no other operation of those kinds is queued: a fresh submit may skip
   * the fair pick of findQueued only when there is nothing to be fair to.
   */
  async claim(
    candidate: { id: string; attempts: number },
    owner: string,
    now: number,
    leaseMs: number,
    policy: ResumePolicy,
    alone?: readonly string[],
  ): Promise<OperationRow | undefined> {
    return this.db
      .updateTable('operations')
      .set({
        state: 'RUNNING',
        lease_owner: owner,
        lease_expires_at: now + leaseMs,
        attempts: candidate.attempts + 1,
        started_at: sql<number>`coalesce(started_at, ${now})`,
        updated_at: now,
      })
      .where('id', '=', candidate.id)
      .where('attempts', '=', candidate.attempts)
      .where((eb) => eb.or([eb('state', '=', 'QUEUED'), resumableOrphan(eb, now, policy)]))
      .$if(alone !== undefined, (q) =>
        q.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('operations as other')
                .select('other.id')
                .where('other.state', '=', 'QUEUED')
                .where('other.id', '<>', candidate.id)
                .where('other.kind', 'in', [...(alone ?? []), '']),
            ),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends a held lease and reports whether a cancel was requested meanwhile. */
  async renew(lease: LeaseKey, now: number, leaseMs: number) {
    const row = await this.owned(lease)
      .set({ lease_expires_at: now + leaseMs })
      .returning('cancel_requested')
      .executeTakeFirst();
    return { held: row !== undefined, cancelRequested: row?.cancel_requested === 1 };
  }

  /** Which of these operations have a cancel request. */
  async cancelRequested(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('operations')
      .select('id')
      .where('id', 'in', [...ids])
      .where('cancel_requested', '=', 1)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Records progress of a held run. */
  async updateProgress(lease: LeaseKey, progress: ProgressColumns, now: number): Promise<boolean> {
    return this.changed(
      this.owned(lease).set({
        ...progressColumns(progress),
        updated_at: now,
      }),
    );
  }

  /** Stores the resume point of a held run. */
  async saveCheckpoint(lease: LeaseKey, checkpointJson: string, now: number): Promise<boolean> {
    return this.changed(
      this.owned(lease).set({
        checkpoint_json: checkpointJson,
        updated_at: now,
      }),
    );
  }

  /** Ends a held run; a run this claim no longer holds, or a finished one, is left alone. */
  async finish(lease: LeaseKey, outcome: OperationOutcome, now: number): Promise<boolean> {
    const end = (db: Kysely<Database>) =>
      this.owned(lease, db).set({
        state: outcome.state,
        result_json: outcome.resultJson ?? null,
        error_code: outcome.errorCode ?? null,
        error_message: outcome.errorMessage ?? null,
        ...(outcome.progress ? progressColumns(outcome.progress) : {}),
        finished_at: now,
        updated_at: now,
        lease_owner: null,
        lease_expires_at: null,
      });
    const hook = this.onEnded;
    if (!hook) return this.changed(end(this.db));
    return this.db.transaction().execute(async (trx) => {
      const row = await end(trx).returningAll().executeTakeFirst();
      if (row) await hook({ ...this.storage, db: trx }, row);
      return row !== undefined;
    });
  }

  /** Returns a held run to the queue (shutdown of a resumable run); a cancelled one ends. */
  async handBack(lease: LeaseKey, now: number, progress?: ProgressColumns): Promise<boolean> {
    const cancelled = sql<boolean>`cancel_requested = 1`;
    return this.changed(
      this.owned(lease).set({
        state: sql<OperationState>`case when ${cancelled} then 'CANCELLED' else 'QUEUED' end`,
        error_code: sql<string | null>`case when ${cancelled} then ${CANCELLED_ERROR.code} end`,
        error_message: sql<
          string | null
        >`case when ${cancelled} then ${CANCELLED_ERROR.message} end`,
        // The cast types the parameter for PostgreSQL, which cannot infer it from a lone branch.
        finished_at: sql<number | null>`case when ${cancelled} then cast(${now} as bigint) end`,
        ...(progress ? progressColumns(progress) : {}),
        updated_at: now,
        lease_owner: null,
        lease_expires_at: null,
      }),
    );
  }

  /**
   * Cancels in one statement, so it cannot race a claim: queued → CANCELLED at once, running →
   * cancel_requested (its runner stops it), finished → unchanged. Returns the row after. The
   * first canceller is kept as cancelled_by (a repeated cancel does not rename it).
   */
  async cancel(
    tenant: string,
    id: string,
    now: number,
    kinds?: readonly string[],
    cancelledBy?: string,
  ) {
    const queued = sql<boolean>`state = 'QUEUED'`;
    await this.db
      .updateTable('operations')
      .set({
        cancel_requested: 1,
        cancelled_by: sql<string | null>`coalesce(cancelled_by, ${cancelledBy ?? null})`,
        state: sql<OperationState>`case when ${queued} then 'CANCELLED' else state end`,
        error_code: sql<
          string | null
        >`case when ${queued} then ${CANCELLED_ERROR.code} else error_code end`,
        error_message: sql<
          string | null
        >`case when ${queued} then ${CANCELLED_ERROR.message} else error_message end`,
        finished_at: sql<number | null>`case when ${queued} then ${now} else finished_at end`,
        updated_at: now,
      })
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .where('state', 'in', ['QUEUED', 'RUNNING'])
      .$if(kinds !== undefined, (q) => q.where((eb) => kindIn(eb, kinds ?? [])))
      .execute();
    return this.get(tenant, id, kinds);
  }

  /**
   * Ends one interrupted run (RUNNING, lease expired) as SUCCEEDED with `resultJson`: its
   * handler found that the work was done before the interruption. False if it is no longer an
   * interrupted run (another replica settled or claimed it).
   */
  async succeedOrphan(id: string, now: number, resultJson: string): Promise<boolean> {
    const end = (db: Kysely<Database>) =>
      db
        .updateTable('operations')
        .set({
          state: 'SUCCEEDED',
          result_json: resultJson,
          error_code: null,
          error_message: null,
          finished_at: now,
          updated_at: now,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', id)
        .where('state', '=', 'RUNNING')
        .where('lease_expires_at', '<', now);
    const hook = this.onEnded;
    if (!hook) return this.changed(end(this.db));
    return this.db.transaction().execute(async (trx) => {
      const row = await end(trx).returningAll().executeTakeFirst();
      if (row) await hook({ ...this.storage, db: trx }, row);
      return row !== undefined;
    });
  }

  /**
   * Ends expired runs that will not be resumed: cancelled ones as CANCELLED, runs of kinds that
   * cannot resume, and runs out of attempts, as FAILED with the reason. Returns how many.
   */
  async failOrphans(now: number, policy: ResumePolicy): Promise<number> {
    const expired = (eb: Eb) =>
      eb.and([eb('state', '=', 'RUNNING'), eb('lease_expires_at', '<', now)]);
    const end = (state: OperationState, code: string, message: string) => ({
      state,
      error_code: code,
      error_message: message,
      finished_at: now,
      updated_at: now,
      lease_owner: null,
      lease_expires_at: null,
    });
    const statements = (db: Kysely<Database>) => [
      db
        .updateTable('operations')
        .set(end('CANCELLED', CANCELLED_ERROR.code, CANCELLED_ERROR.message))
        .where((eb) => eb.and([expired(eb), eb('cancel_requested', '=', 1)])),
      db
        .updateTable('operations')
        .set(end('FAILED', 'aborted', INTERRUPTED))
        .where((eb) => eb.and([expired(eb), eb.not(kindIn(eb, policy.resumableKinds))])),
      db
        .updateTable('operations')
        .set(end('FAILED', 'aborted', `${INTERRUPTED}, ${policy.maxAttempts} times; gave up`))
        .where((eb) => eb.and([expired(eb), eb('attempts', '>=', policy.maxAttempts)])),
    ];
    const hook = this.onEnded;
    let count = 0;
    if (!hook) {
      for (const statement of statements(this.db)) count += await this.changedCount(statement);
      return count;
    }
    return this.db.transaction().execute(async (trx) => {
      for (const statement of statements(trx)) {
        for (const row of await statement.returningAll().execute()) {
          await hook({ ...this.storage, db: trx }, row);
          count += 1;
        }
      }
      return count;
    });
  }

  /**
   * Marks every running lease expired. Only for SQLite at start: one server owns that file, so
   * whatever still says RUNNING was left by a process that is gone.
   */
  async expireAllLeases(): Promise<number> {
    return this.changedCount(
      this.db.updateTable('operations').set({ lease_expires_at: 0 }).where('state', '=', 'RUNNING'),
    );
  }

  /** Deletes finished operations that finished before `cutoff`; returns how many. */
  async deleteFinishedBefore(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom('operations')
      .where('state', 'in', [...TERMINAL])
      .where('finished_at', '<', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** An update of the run this claim holds: RUNNING, same owner, same attempt. */
  private owned(lease: LeaseKey, db: Kysely<Database> = this.db) {
    return db
      .updateTable('operations')
      .where('id', '=', lease.id)
      .where('state', '=', 'RUNNING')
      .where('lease_owner', '=', lease.owner)
      .where('attempts', '=', lease.attempt);
  }

  private async changed(q: Executable) {
    return (await this.changedCount(q)) > 0;
  }

  private async changedCount(q: Executable) {
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  }
}

function progressColumns(progress: ProgressColumns) {
  return {
    progress_done: progress.done,
    progress_total: progress.total,
    progress_unit: progress.unit,
    progress_message: progress.message,
  };
}

/**
 * The kind and target of those of `ids` that are operations of the tenant, in one query (the
 * audit trail names an operation a record targets: "Backup of ledger").
 */
export async function operationTargetsByIds(
  storage: Storage,
  tenant: string,
  ids: readonly string[],
): Promise<Map<string, { kind: string; targetId: string | null }>> {
  const wanted = [...new Set(ids)];
  const targets = new Map<string, { kind: string; targetId: string | null }>();
  if (wanted.length === 0) return targets;
  const rows = await storage.db
    .selectFrom('operations')
    .select(['id', 'kind', 'target_id'])
    .where('tenant', '=', tenant)
    .where('id', 'in', wanted)
    .execute();
  for (const row of rows) targets.set(row.id, { kind: row.kind, targetId: row.target_id });
  return targets;
}
