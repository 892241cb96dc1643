import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logging/logger.js';
import type { AuditRecord, AuditStore } from '../../storage/audit-store.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from '../data/page-tokens.js';
import { invalidArgument } from '../errors.js';

/** What a caller of the trail knows about a call; the id and time are added here. */
export type AuditEntry = Omit<AuditRecord, 'id' | 'at'>;

/**
 * A token change made on the server host rather than through an RPC: by the token CLI
 * (`by: 'cli'`) or by the server issuing the first admin token at start (`by: 'server'`).
 */
export function localTokenChange(change: {
  by: 'cli' | 'server';
  tenant: string;
  method: 'CreateToken' | 'RevokeToken';
  tokenId: string;
  outcome: string;
  detail?: string;
}): AuditEntry {
  return {
    tenant: change.tenant,
    subject: change.by,
    service: change.by,
    method: change.method,
    targetId: change.tokenId,
    outcome: change.outcome,
    clientAddress: 'local',
    detail: change.detail ?? '',
  };
}

export interface AuditListRequest {
  pageSize?: number | undefined;
  pageToken?: string | undefined;
  subject?: string | undefined;
  method?: string | undefined;
  outcome?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

export interface AuditTrailOptions {
  store: AuditStore;
  logger: Logger;
  /** Records older than this are deleted by the sweep (independent of operation retention). */
  retentionMs: number;
  /**
   * What else is kept exactly as long as the audit records (discarded dead letters): the sweep
   * deletes what each holds from before the same cut-off.
   */
  retainedAlongside?: readonly RetainedAlongside[];
  clock?: () => number;
}

/** Data kept for the audit retention period and deleted by the audit sweep. */
export interface RetainedAlongside {
  /** Plural noun for the log ("discarded dead letters"). */
  what: string;
  /** Deletes what is older than `before` (epoch ms); returns how many. */
  deleteBefore(before: number): Promise<number>;
}

const SWEEP_EVERY_MS = 10 * 60_000;
const POSITION = /^(\d{1,16})\.([0-9a-f-]{36})$/;
const FILTER_MAX = 256;

/** One batch of records being collected, and the promise of its write. */
interface Batch {
  records: AuditRecord[];
  written: Promise<void>;
  resolve: () => void;
}

/** How long a routine record may wait for others to share its INSERT. */
const ROUTINE_DELAY_MS = 25;
/** A batch this large is written at once. */
const BATCH_MAX = 500;

/**
 * The audit trail (issue 18, ASVS V7). Records are written in batches, one multi-row INSERT each,
 * so a burst of calls costs a few statements (and on SQLite a few fsyncs), not one each. An urgent
 * record (a refusal) has its batch written on the next event-loop turn and the transport awaits
 * it: a refusal is never answered before its record is stored. A routine record (a successful
 * change) waits up to ROUTINE_DELAY_MS for company and nobody awaits it: the call's answer is not
 * delayed, and a crash within that window can lose it. A batch that cannot be written is logged at
 * error level, record by record, so no record disappears silently.
 */
export class AuditTrail {
  private readonly store: AuditStore;
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly retentionMs: number;
  private readonly retainedAlongside: readonly RetainedAlongside[];
  private batch: Batch | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  private batchImmediate: NodeJS.Immediate | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(options: AuditTrailOptions) {
    this.store = options.store;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.retentionMs = options.retentionMs;
    this.retainedAlongside = options.retainedAlongside ?? [];
  }

  /**
   * Adds a record to the current batch; resolves once that batch is written or logged. `urgent`
   * writes the batch on the next turn instead of after the routine delay.
   */
  record(entry: AuditEntry, { urgent = false }: { urgent?: boolean } = {}): Promise<void> {
    const batch = (this.batch ??= this.newBatch());
    batch.records.push({ ...entry, id: randomUUID(), at: this.clock() });
    if (urgent || batch.records.length >= BATCH_MAX) {
      this.batchImmediate ??= setImmediate(() => this.writeBatch());
    } else {
      this.batchTimer ??= setTimeout(() => this.writeBatch(), ROUTINE_DELAY_MS);
    }
    return batch.written;
  }

  /** Resolves when every record made so far is written (tests, shutdown). */
  async flush(): Promise<void> {
    this.writeBatch();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private newBatch(): Batch {
    let resolve!: () => void;
    const written = new Promise<void>((done) => (resolve = done));
    return { records: [], written, resolve };
  }

  private writeBatch(): void {
    clearTimeout(this.batchTimer);
    clearImmediate(this.batchImmediate);
    this.batchTimer = undefined;
    this.batchImmediate = undefined;
    const batch = this.batch;
    this.batch = undefined;
    if (!batch) return;
    const done = this.write(batch.records).finally(() => {
      this.inFlight.delete(done);
      batch.resolve();
    });
    this.inFlight.add(done);
  }

  private async write(batch: AuditRecord[]): Promise<void> {
    try {
      await this.store.insert(batch);
    } catch (error) {
      for (const record of batch) {
        this.logger.error({ err: error, auditRecord: record }, 'audit record could not be stored');
      }
    }
  }

  /** One page of a tenant's records, newest first (unscoped ones too when asked). */
  async list(
    tenant: string,
    includeUnscoped: boolean,
    request: AuditListRequest,
  ): Promise<{ records: AuditRecord[]; nextPageToken: string }> {
    const limit = resolvePageSize(request.pageSize);
    const after = decodePosition(request.pageToken);
    for (const field of ['subject', 'method', 'outcome'] as const) {
      if ((request[field]?.length ?? 0) > FILTER_MAX) {
        throw invalidArgument(field, `at most ${FILTER_MAX} characters`);
      }
    }
    const { since, until } = request;
    if (since !== undefined && until !== undefined && since >= until) {
      throw invalidArgument('until', 'must be later than since');
    }
    const rows = await this.store.list({
      tenant,
      includeUnscoped,
      subject: request.subject,
      method: request.method,
      outcome: request.outcome,
      since,
      until,
      after,
      limit: limit + 1,
    });
    const records = rows.slice(0, limit);
    const last = records.at(-1);
    return {
      records,
      nextPageToken: rows.length > limit && last ? encodeKeyToken(`${last.at}.${last.id}`) : '',
    };
  }

  /** Deletes records past the retention, and what is retained alongside; returns how many records. */
  async sweep(): Promise<number> {
    const before = this.clock() - this.retentionMs;
    const count = await this.store.deleteBefore(before);
    for (const retained of this.retainedAlongside) {
      const deleted = await retained.deleteBefore(before);
      if (deleted > 0) {
        this.logger.info({ count: deleted }, `deleted ${retained.what} past the audit retention`);
      }
    }
    return count;
  }

  /** Starts the periodic retention sweep (every replica may sweep; deletes are idempotent). */
  start(): void {
    const run = () => {
      this.sweep().then(
        (count) => {
          if (count > 0) this.logger.info({ count }, 'deleted audit records past retention');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'audit retention sweep failed'),
      );
    };
    run();
    this.sweepTimer = setInterval(run, SWEEP_EVERY_MS);
    this.sweepTimer.unref();
  }

  /** Stops the sweep and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.flush();
  }
}

function decodePosition(token: string | undefined): { at: number; id: string } | undefined {
  const position = decodeKeyToken(token, (text) => POSITION.test(text));
  if (position === undefined) return undefined;
  const [, at, id] = POSITION.exec(position) as RegExpExecArray;
  return { at: Number(at), id: id as string };
}
