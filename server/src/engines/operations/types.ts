import type { Storage } from '../../storage/database.js';
import type { OperationEndedHook } from '../../storage/operations/operation-store.js';

/** Lifecycle of a tracked operation; the last three are terminal and never change again. */
export type OperationState = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface OperationProgress {
  done: number;
  total: number;
  unit: string;
  message: string;
}

/** A tracked operation as the engines and bindings see it. */
export interface OperationRecord {
  id: string;
  tenant: string;
  kind: string;
  state: OperationState;
  targetId: string | null;
  trackingId: string | null;
  progress: OperationProgress;
  createdAt: number;
  startedAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  cancelRequested: boolean;
  error?: { code: string; message: string } | undefined;
  createdBy: string;
  /** Who asked to cancel it, once anyone has. */
  cancelledBy?: string;
  /** The handler's JSON result, once SUCCEEDED. */
  result?: unknown;
  /** The submitted request's stored JSON (what it was asked, before any result), unparsed. */
  requestJson?: string;
}

/** A progress report; omitted fields keep their last value. */
export interface ProgressUpdate {
  done: number;
  total?: number | undefined;
  unit?: string | undefined;
  message?: string | undefined;
}

/** What a handler gets for one run of one operation. */
export interface OperationContext<TRequest = unknown, TCheckpoint = unknown> {
  readonly operationId: string;
  readonly tenant: string;
  readonly kind: string;
  readonly targetId: string | null;
  /** The submitted request, parsed from its stored JSON. */
  readonly request: TRequest;
  readonly createdBy: string;
  /** 1 on the first run; higher when a resumable run is resumed after an interruption. */
  readonly attempt: number;
  /** Aborted on cancel, shutdown or a lost lease; `signal.reason` is a StoreError. */
  readonly signal: AbortSignal;
  /** Reports progress; writes are throttled, the last report is always stored. */
  progress(update: ProgressUpdate): void;
  /** Stores a resume point (JSON-serialisable) that the next attempt finds in checkpointValue. */
  checkpoint(value: TCheckpoint): Promise<void>;
  /** The last checkpoint stored, by this attempt or an earlier one. */
  readonly checkpointValue: TCheckpoint | undefined;
  /** Throws the abort reason once the run was cancelled or must stop. */
  throwIfCancelled(): void;
}

/** The code an engine registers for one kind of operation. */
export interface OperationHandler<TRequest = unknown, TCheckpoint = unknown> {
  /** Does the work; the resolved value (JSON-serialisable) becomes the operation's result. */
  run(ctx: OperationContext<TRequest, TCheckpoint>): Promise<unknown>;
  /** Whether an interrupted run may run again (from its checkpoint) instead of failing. */
  resumable: boolean;
  /**
   * For a kind that cannot resume: whether an interrupted run had in fact done its work (the
   * process died after the run's last durable step, before its success was recorded). Returns
   * the run's result, and the operation ends SUCCEEDED with it instead of FAILED; undefined
   * when the work was not done.
   */
  completedBeforeInterruption?(op: InterruptedOperation<TRequest>): Promise<unknown>;
}

/** An operation whose run was interrupted (its server died), as recovery sees it. */
export interface InterruptedOperation<TRequest = unknown> {
  id: string;
  tenant: string;
  request: TRequest;
}

export interface SubmitRequest {
  tenant: string;
  kind: string;
  /** JSON-serialisable; stored, fingerprinted and handed to the handler. */
  request: unknown;
  targetId?: string | null | undefined;
  /** The caller's idempotency key: one operation per tenant and tracking id. */
  trackingId?: string | null | undefined;
  /**
   * What a retry under the same tracking id must match, when `request` holds what the start
   * derived from the moment it ran (a time "now"): the request as the caller sent it. Omitted,
   * `request` itself.
   */
  callerRequest?: unknown;
  createdBy: string;
  /**
   * Work the server starts itself (schedules, the health monitor, retention after a scheduled
   * capture): counted against the tenant's caps but never refused by them, as the schedules
   * bound it rather than a caller. Callers' submits leave it unset.
   */
  uncapped?: boolean | undefined;
}

export interface OperationListRequest {
  /** 0 → 50; at most 1000. */
  pageSize?: number | undefined;
  pageToken?: string | undefined;
  states?: readonly string[] | undefined;
  /** The kinds to show; bindings pass their family (or the part of it the caller asked for). */
  kinds?: readonly string[] | undefined;
  targetId?: string | undefined;
  /** Epoch ms; only operations created after it. */
  createdAfter?: number | undefined;
}

export interface OperationPage {
  operations: OperationRecord[];
  /** Empty on the last page. */
  nextPageToken: string;
}

/** The part of a pino logger the runner uses. */
export interface OperationLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OperationRunnerOptions {
  storage: Storage;
  /** Names this runner in leases; defaults to host, pid and a random suffix. */
  nodeId?: string | undefined;
  /** How long a claim lasts without renewal (renewed every third of it). Default 15 s. */
  leaseMs?: number | undefined;
  /** How often to look for work and cancel requests. Default 400 ms (± 25 % jitter). */
  pollMs?: number | undefined;
  /** Operations run at once by this runner. Default 2. */
  concurrency?: number | undefined;
  /**
   * Of those, how many may be previews, comparisons or dry-runs (default 1): they read a whole
   * backup or tree on the server's thread, so a tenant at its preview cap leaves the other
   * slots to the rest of the work.
   */
  previewSlots?: number | undefined;
  /** Finished operations are deleted this long after they finish. Default 30 days. */
  retentionMs?: number | undefined;
  /**
   * Per tenant, how many operations may be queued or running at once: previews, comparisons
   * and dry-runs together (default 4), and every other kind together (default 64).
   */
  tenantCaps?: { previews?: number | undefined; others?: number | undefined } | undefined;
  /** Runs of a resumable kind before an interrupted one is failed instead. Default 5. */
  maxAttempts?: number | undefined;
  /**
   * Treat every RUNNING record as orphaned at start. Default: on with SQLite, where one server
   * owns the file; off with PostgreSQL, where another replica may hold the lease.
   */
  reclaimOnStart?: boolean | undefined;
  /** Epoch-ms clock for stored times and lease expiry. */
  clock?: (() => number) | undefined;
  logger?: OperationLogger | undefined;
  /** Told of each run this runner ends (for metrics); it must not throw or block. */
  onRunEnded?: ((run: EndedRun) => void) | undefined;
  /**
   * Writes, in the transaction that records an operation's end, what must commit with it (the
   * notification outbox), whichever replica or orphan sweep ends it.
   */
  recordWithEnd?: OperationEndedHook | undefined;
}

/** A run this runner ended and recorded, as the metrics count it. */
export interface EndedRun {
  tenant: string;
  kind: string;
  state: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  /** From this run's claim to its recorded end. */
  durationMs: number;
  /** The handler's result, when it succeeded. */
  result: unknown;
}

/** A run in progress in this process, as the metrics see it. */
export interface RunningRun {
  kind: string;
  /** When it was claimed, or last reported progress or stored a checkpoint (epoch ms). */
  lastActivityAt: number;
}
