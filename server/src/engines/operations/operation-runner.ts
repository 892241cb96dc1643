import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { OperationCapStore, type OperationCap } from '../../storage/operations/operation-caps.js';
import {
  OperationStore,
  type NewOperationRow,
  type OperationRow,
} from '../../storage/operations/operation-store.js';
import { invalidArgument, resourceExhausted, StoreError } from '../errors.js';
import { PREVIEW_OPERATION_KINDS } from '../operation-kinds.js';
import { canonicalJson } from '../data/canonical-json.js';
import { requestFingerprint } from './fingerprint.js';
import { toOperationRecord } from './operation-record.js';
import { OperationWorker } from './operation-worker.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import { HandlerRegistry } from './registry.js';
import type {
  OperationHandler,
  OperationListRequest,
  OperationLogger,
  OperationPage,
  OperationRecord,
  OperationRunnerOptions,
  OperationState,
  RunningRun,
  SubmitRequest,
} from './types.js';

const DEFAULTS = {
  leaseMs: 15_000,
  pollMs: 400,
  concurrency: 2,
  retentionMs: 30 * 24 * 60 * 60_000,
  maxAttempts: 5,
  previewCap: 4,
  previewSlots: 1,
  otherCap: 64,
};
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
const MAX_TRACKING_ID = 256;
const STATES: readonly OperationState[] = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];
const SILENT: OperationLogger = { info() {}, warn() {}, error() {} };

/** The submit's tracking id (null when none), refused when longer than stored ids may be. */
function trackingIdOf(input: Pick<SubmitRequest, 'trackingId'>): string | null {
  const trackingId = input.trackingId ? input.trackingId : null;
  if (trackingId !== null && trackingId.length > MAX_TRACKING_ID) {
    throw invalidArgument('tracking_operation_id', `at most ${MAX_TRACKING_ID} characters`);
  }
  return trackingId;
}

/** What a retry under the same tracking id must match: the kind and the caller's request. */
function fingerprintOf(
  input: Pick<SubmitRequest, 'kind' | 'request' | 'callerRequest'>,
  requestJson = canonicalJson(input.request),
): string {
  const asked =
    input.callerRequest === undefined ? requestJson : canonicalJson(input.callerRequest);
  return requestFingerprint(input.kind, asked);
}

/** AlreadyExists unless the operation holding the tracking id was asked the same thing. */
function requireSameRequest(row: OperationRow, fingerprint: string): void {
  if (row.request_fingerprint === fingerprint) return;
  throw new StoreError(
    'already_exists',
    `tracking id ${row.tracking_id} already names another operation with a different request`,
  );
}

/**
 * Durable tracked operations shared by the backup and schema engines (DESIGN.md §3): engines
 * register kinds and submit work; any replica on the same database runs it under a lease and
 * answers status, list and cancel for it.
 */
export class OperationRunner {
  private readonly store: OperationStore;
  private readonly registry = new HandlerRegistry();
  private readonly worker: OperationWorker;
  private readonly clock: () => number;
  private readonly caps: OperationCapStore;
  private readonly previewCap: number;
  private readonly otherCap: number;

  constructor(options: OperationRunnerOptions) {
    this.store = new OperationStore(options.storage, options.recordWithEnd);
    this.caps = new OperationCapStore(options.storage);
    this.clock = options.clock ?? Date.now;
    const positive = (value: number | undefined, fallback: number) =>
      value !== undefined && value > 0 ? value : fallback;
    this.previewCap = positive(options.tenantCaps?.previews, DEFAULTS.previewCap);
    this.otherCap = positive(options.tenantCaps?.others, DEFAULTS.otherCap);
    const nodeId = options.nodeId ?? `${hostname()}-${process.pid}`;
    this.worker = new OperationWorker({
      store: this.store,
      registry: this.registry,
      // Unique per runner, so two runners sharing a node id never share a lease.
      owner: `${nodeId}/${randomUUID().slice(0, 8)}`,
      leaseMs: positive(options.leaseMs, DEFAULTS.leaseMs),
      pollMs: positive(options.pollMs, DEFAULTS.pollMs),
      concurrency: positive(options.concurrency, DEFAULTS.concurrency),
      previewSlots: positive(options.previewSlots, DEFAULTS.previewSlots),
      retentionMs: positive(options.retentionMs, DEFAULTS.retentionMs),
      maxAttempts: positive(options.maxAttempts, DEFAULTS.maxAttempts),
      reclaimOnStart: options.reclaimOnStart ?? options.storage.dialect === 'sqlite',
      clock: this.clock,
      logger: options.logger ?? SILENT,
      onRunEnded: options.onRunEnded,
    });
  }

  /** Makes this server run operations of `kind` with `handler`. */
  register<TRequest, TCheckpoint>(
    kind: string,
    handler: OperationHandler<TRequest, TCheckpoint>,
  ): void {
    this.registry.register(kind, handler);
  }

  /**
   * Queues an operation and returns its record at once. A tracking id already used by the
   * tenant returns that operation when kind and request match, else fails with AlreadyExists;
   * either way before the tenant's cap is looked at. A new one over the cap of its kind's class
   * fails with ResourceExhausted (unless `uncapped`: work the server starts itself).
   */
  async submit(input: SubmitRequest): Promise<OperationRecord> {
    this.registry.require(input.kind);
    if (!input.tenant) throw invalidArgument('tenant', 'required');
    const trackingId = trackingIdOf(input);
    const requestJson = canonicalJson(input.request);
    const fingerprint = fingerprintOf(input, requestJson);
    const op: NewOperationRow = {
      id: randomUUID(),
      tenant: input.tenant,
      kind: input.kind,
      target_id: input.targetId ?? null,
      tracking_id: trackingId,
      request_json: requestJson,
      request_fingerprint: fingerprint,
      created_by: input.createdBy,
      created_at: this.clock(),
    };
    const { row, inserted } = input.uncapped
      ? await this.store.insertIfTrackingIdFree(op)
      : await this.insertWithinCap(op);
    if (!inserted) requireSameRequest(row, fingerprint);
    if (inserted) this.worker.offer(row);
    return toOperationRecord(row);
  }

  /**
   * The tenant's operation under the submit's tracking id, whatever its state, when it was
   * started with the same kind and request; AlreadyExists when with another; undefined when the
   * id is new or none is given. Engines ask first (startTracked), so checks of the world as it
   * is now run only for a new operation, never against a retry of one already started.
   */
  async findTracked(
    input: Pick<SubmitRequest, 'tenant' | 'kind' | 'request' | 'trackingId' | 'callerRequest'>,
  ): Promise<OperationRecord | undefined> {
    const trackingId = trackingIdOf(input);
    if (trackingId === null || !input.tenant) return undefined;
    const row = await this.store.getByTrackingId(input.tenant, trackingId);
    if (!row) return undefined;
    requireSameRequest(row, fingerprintOf(input));
    return toOperationRecord(row);
  }

  /**
   * The insert under the tenant's cap for the kind's class (docs/security.md, "Operation caps
   * and rate limits"): over it, ResourceExhausted naming the cap and an estimated retry time.
   */
  private async insertWithinCap(op: NewOperationRow) {
    const cap = this.capOf(op.kind);
    const result = await this.caps.insertWithinCap(op, cap);
    if (result.outcome !== 'refused') {
      return { row: result.row, inserted: result.outcome === 'inserted' };
    }
    const seconds = await this.caps.retryEstimateSeconds(op.tenant, cap, this.clock());
    const what = cap.otherKinds ? 'operations (besides previews)' : 'previews and dry-runs';
    throw resourceExhausted(
      `tenant ${op.tenant} has ${result.active} ${what} queued or running, the most a tenant ` +
        `may have (${cap.limit}); retry when one ends, in about ${seconds} s`,
      seconds,
    );
  }

  /** Previews and dry-runs share the tighter cap; every other kind shares the other one. */
  private capOf(kind: string): OperationCap {
    if ((PREVIEW_OPERATION_KINDS as readonly string[]).includes(kind)) {
      return { kinds: PREVIEW_OPERATION_KINDS, limit: this.previewCap };
    }
    return { kinds: PREVIEW_OPERATION_KINDS, otherKinds: true, limit: this.otherCap };
  }

  /** The tenant's operation, or undefined when absent or not of one of `kinds` (when given). */
  async get(
    tenant: string,
    id: string,
    kinds?: readonly string[],
  ): Promise<OperationRecord | undefined> {
    const row = await this.store.get(tenant, id, kinds);
    return row && toOperationRecord(row);
  }

  /** A page of the tenant's operations, newest first. */
  async list(tenant: string, request: OperationListRequest = {}): Promise<OperationPage> {
    const pageSize = request.pageSize ?? 0;
    if (!Number.isInteger(pageSize) || pageSize < 0 || pageSize > MAX_PAGE_SIZE) {
      throw invalidArgument('page_size', `must be between 0 and ${MAX_PAGE_SIZE}`);
    }
    const limit = pageSize === 0 ? DEFAULT_PAGE_SIZE : pageSize;
    for (const state of request.states ?? []) {
      if (!STATES.includes(state as OperationState)) {
        throw invalidArgument('states', `${state} is not an operation state`);
      }
    }
    const rows = await this.store.list(tenant, {
      states: request.states,
      kinds: request.kinds,
      targetId: request.targetId || undefined,
      createdAfter: request.createdAfter,
      after: request.pageToken ? decodePageToken(request.pageToken) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const more = rows.length > limit && last !== undefined;
    return {
      operations: page.map(toOperationRecord),
      nextPageToken: more
        ? encodePageToken({ createdAt: Number(last.created_at), id: last.id })
        : '',
    };
  }

  /**
   * Cancels: a queued operation ends CANCELLED at once, a running one is asked to stop (on
   * whichever replica runs it), a finished one is returned unchanged. Undefined when absent.
   * `cancelledBy` (the caller's subject) is recorded for "Cancelled by <who>".
   */
  async cancel(
    tenant: string,
    id: string,
    kinds?: readonly string[],
    cancelledBy?: string,
  ): Promise<OperationRecord | undefined> {
    const row = await this.store.cancel(tenant, id, this.clock(), kinds, cancelledBy);
    // Here the handler hears of it now; elsewhere its runner reads the flag on its next poll.
    if (row?.state === 'RUNNING') this.worker.abortLocal(row.id, 'cancel');
    return row && toOperationRecord(row);
  }

  /** Starts claiming and running operations. */
  start(): void {
    this.worker.start();
  }

  /**
   * Stops claiming, waits up to graceMs for running handlers, then aborts them and hands their
   * operations back: resumable ones to the queue, others FAILED ("interrupted: the server running it stopped…").
   */
  stop(options: { graceMs?: number } = {}): Promise<void> {
    return this.worker.stop(options.graceMs ?? 10_000);
  }

  /** Deletes finished operations past the retention now (the loop also does it periodically). */
  purgeExpired(): Promise<number> {
    return this.worker.purgeExpired();
  }

  /** The operations this runner is running now: kinds and last progress (metrics). */
  running(): RunningRun[] {
    return this.worker.running();
  }

  /** Ids of the operations this runner is running now. */
  runningIds(): string[] {
    return this.worker.runningIds();
  }
}
