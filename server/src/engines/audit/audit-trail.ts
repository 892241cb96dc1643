import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logging/logger.js';
import type { AuditRecord, AuditStore } from '../../storage/audit/audit-store.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from '../data/page-tokens.js';
import { invalidArgument } from '../errors.js';
import { AUDIT_FIELD_MAX, truncateRecordFields } from './audit-fields.js';
import { RefusalLimiter, type RefusalSummary, type RefusalVerdict } from './refusal-limiter.js';

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

/**
 * Names for the targets records name, looked up when the trail is read (the app gives the backup
 * catalog's: a backup id of the tenant → the backup's name). Ids it does not know are left out.
 */
export interface AuditTargetNames {
  namesOf(tenant: string, targetIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** A record as the trail lists it: with its target's name when one is known. */
export type ListedAuditRecord = AuditRecord;

export interface AuditTrailOptions {
  store: AuditStore;
  /** Names for the listed records' targets; without it records list ids only. */
  targetNames?: AuditTargetNames;
  logger: Logger;
  /** Records older than this are deleted by the sweep (independent of operation retention). */
  retentionMs: number;
  /**
   * What else is kept exactly as long as the audit records (discarded dead letters): the sweep
   * deletes what each holds from before the same cut-off.
   */
  retainedAlongside?: readonly RetainedAlongside[];
  /**
   * Bytes of record text one page holds at most (a page of `page_size` records is cut short
   * before it, and its next-page token goes on from there), so a page always fits the message
   * limit. Default 1 MiB.
   */
  pageBytesMax?: number;
  /** Refusals of unverified callers recorded per address and window (RefusalLimiter). */
  refusals?: { limit: number; windowMs: number; maxAddresses?: number };
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
const DEFAULT_PAGE_BYTES_MAX = 1 << 20;
/** The protobuf framing of one record beyond its text: tags, lengths, the timestamp. */
const RECORD_OVERHEAD_BYTES = 64;

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
  private readonly targetNames: AuditTargetNames | undefined;
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly retentionMs: number;
  private readonly retainedAlongside: readonly RetainedAlongside[];
  private batch: Batch | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  private batchImmediate: NodeJS.Immediate | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private summaryTimer: NodeJS.Timeout | undefined;
  private readonly pageBytesMax: number;
  private readonly refusals: RefusalLimiter;

  constructor(options: AuditTrailOptions) {
    this.store = options.store;
    this.targetNames = options.targetNames;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.retentionMs = options.retentionMs;
    this.retainedAlongside = options.retainedAlongside ?? [];
    this.pageBytesMax = options.pageBytesMax ?? DEFAULT_PAGE_BYTES_MAX;
    this.refusals = new RefusalLimiter({
      limit: options.refusals?.limit ?? 0,
      windowMs: options.refusals?.windowMs ?? 10_000,
      ...(options.refusals?.maxAddresses !== undefined && {
        maxAddresses: options.refusals.maxAddresses,
      }),
      clock: this.clock,
      onSummary: (summary) => void this.record(refusalSummaryRecord(summary)),
    });
  }

  /**
   * Counts a refusal of a caller with no verified credential from `clientAddress`: within the
   * limit it is to be recorded (without a tenant); beyond it, answered ResourceExhausted and
   * counted in the window's summary record instead.
   */
  admitUnverifiedRefusal(clientAddress: string): RefusalVerdict {
    return this.refusals.admit(clientAddress);
  }

  /**
   * Adds a record to the current batch; resolves once that batch is written or logged. `urgent`
   * writes the batch on the next turn instead of after the routine delay.
   */
  record(entry: AuditEntry, { urgent = false }: { urgent?: boolean } = {}): Promise<void> {
    const batch = (this.batch ??= this.newBatch());
    // Cut here, so every writer (the transport, the token CLI, retention) keeps the limits.
    batch.records.push({ ...truncateRecordFields(entry), id: randomUUID(), at: this.clock() });
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
  ): Promise<{ records: ListedAuditRecord[]; nextPageToken: string }> {
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
      fieldMax: AUDIT_FIELD_MAX,
    });
    // Cut to the byte budget too: rows stored before the write-side limits, or many long ones,
    // must not make a page larger than the message limit. One record always goes, so paging moves.
    const records: AuditRecord[] = [];
    let bytes = 0;
    for (const row of rows.slice(0, limit)) {
      const record = truncateRecordFields(row.record, row.storedLengths);
      bytes += recordBytes(record);
      if (records.length > 0 && bytes > this.pageBytesMax) break;
      records.push(record);
    }
    const last = records.at(-1);
    return {
      records: await this.named(tenant, records),
      nextPageToken:
        rows.length > records.length && last ? encodeKeyToken(`${last.at}.${last.id}`) : '',
    };
  }

  /**
   * The page's records with their targets' names: one lookup for the page, of the targets of the
   * tenant's own records (an unscoped record's target belongs to no tenant the caller may read).
   */
  private async named(tenant: string, records: AuditRecord[]): Promise<ListedAuditRecord[]> {
    if (!this.targetNames) return records;
    // A name kept with the record (its target is gone) is the one it had then.
    const unnamed = (r: AuditRecord) => r.tenant === tenant && r.targetId && !r.targetName;
    const ids = records.flatMap((r) => (unnamed(r) && r.targetId ? [r.targetId] : []));
    if (ids.length === 0) return records;
    const names = await this.targetNames.namesOf(tenant, ids);
    return records.map((record) => {
      const name = unnamed(record) && record.targetId ? names.get(record.targetId) : undefined;
      return name === undefined ? record : { ...record, targetName: name };
    });
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
    // A flood that stops gets its summary within a second of its window's end.
    this.summaryTimer = setInterval(() => this.refusals.closeEnded(), 1_000);
    this.summaryTimer.unref();
  }

  /** Stops the sweep, summarises open refusal windows and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    clearInterval(this.summaryTimer);
    this.refusals.closeAll();
    await this.flush();
  }
}

/** The record's size on the wire, near enough: its text in UTF-8 and the framing. */
function recordBytes(record: AuditRecord): number {
  let bytes = RECORD_OVERHEAD_BYTES;
  for (const value of Object.values(record)) {
    if (typeof value === 'string') bytes += Buffer.byteLength(value, 'utf8');
  }
  return bytes;
}

/**
 * The one record of a window in which an address went over the refusal limit: no tenant (the
 * callers proved none), seen by the server's admins ("412 refusals from 127.0.0.1 in 10 s").
 */
export function refusalSummaryRecord(summary: RefusalSummary): AuditEntry {
  const seconds = Math.max(1, Math.round(summary.windowMs / 1000));
  return {
    tenant: '',
    subject: '',
    service: 'server',
    method: 'RefusalSummary',
    targetId: null,
    outcome: 'RESOURCE_EXHAUSTED',
    clientAddress: summary.clientAddress,
    detail:
      `${summary.refusals} refusals from ${summary.clientAddress} in ${seconds} s ` +
      `(${summary.summarised} over the limit of ${summary.limit} answered ResourceExhausted, ` +
      `not recorded one by one)`,
  };
}

function decodePosition(token: string | undefined): { at: number; id: string } | undefined {
  const position = decodeKeyToken(token, (text) => POSITION.test(text));
  if (position === undefined) return undefined;
  const [, at, id] = POSITION.exec(position) as RegExpExecArray;
  return { at: Number(at), id: id as string };
}
