import {
  CANCELLED_ERROR,
  type LeaseKey,
  type OperationOutcome,
  type OperationRow,
  type OperationStore,
} from '../../storage/operations/operation-store.js';
import { isStoreError, StoreError } from '../errors.js';
import { ProgressReporter } from './progress-reporter.js';
import { toOperationRecord } from './operation-record.js';
import type {
  EndedRun,
  OperationContext,
  OperationHandler,
  OperationLogger,
  OperationProgress,
} from './types.js';

/** Why a run's signal was aborted. */
export type AbortCause = 'cancel' | 'shutdown' | 'lease';

const ABORT_REASONS: Record<AbortCause, () => StoreError> = {
  cancel: () => new StoreError('cancelled', CANCELLED_ERROR.message),
  shutdown: () => new StoreError('unavailable', 'the server is shutting down'),
  lease: () => new StoreError('aborted', 'this server no longer holds the operation'),
};
const INTERNAL_MESSAGE = 'the operation failed because of an internal error';
const FINAL_WRITE_RETRY_MS = [250, 1000];

export interface ExecutionDeps {
  store: OperationStore;
  handler: OperationHandler;
  owner: string;
  leaseMs: number;
  clock: () => number;
  logger: OperationLogger;
  onEnded?: ((run: EndedRun) => void) | undefined;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One claimed run of one operation: runs the handler, keeps the lease alive, and records how the
 * run ended. Every write is guarded by the lease, so a run that lost its claim changes nothing.
 */
export class OperationExecution {
  readonly id: string;
  readonly kind: string;
  /** When it was claimed, or last reported progress or stored a checkpoint (stuck runs). */
  lastActivityAt: number;
  /** Settles (never rejects) once the outcome is recorded or given up. */
  readonly done: Promise<void>;
  private readonly lease: LeaseKey;
  private readonly controller = new AbortController();
  private readonly reporter: ProgressReporter;
  private readonly heartbeat: NodeJS.Timeout;
  private cause: AbortCause | undefined;
  private leaseExpiresAt: number;
  private renewing = false;
  /** Set once the outcome is being written, so it is written once. */
  private closed = false;
  private readonly tenant: string;
  private readonly startedAt: number;
  private result: unknown;

  constructor(
    private readonly deps: ExecutionDeps,
    row: OperationRow,
  ) {
    this.id = row.id;
    this.kind = row.kind;
    this.tenant = row.tenant;
    this.startedAt = deps.clock();
    this.lastActivityAt = this.startedAt;
    this.lease = { id: row.id, owner: deps.owner, attempt: Number(row.attempts) };
    this.leaseExpiresAt = Number(row.lease_expires_at);
    this.reporter = new ProgressReporter(async (progress) => {
      await deps.store.updateProgress(this.lease, progress, deps.clock());
    }, toOperationRecord(row).progress);
    this.heartbeat = setInterval(() => void this.renew(), Math.max(1, deps.leaseMs / 3));
    this.done = this.run(row);
  }

  /** Aborts the handler's signal; the first cause wins. */
  abort(cause: AbortCause): void {
    if (this.controller.signal.aborted) return;
    this.cause = cause;
    this.controller.abort(ABORT_REASONS[cause]());
  }

  /** Shutdown stopped waiting: records the shutdown outcome now and ignores the handler after. */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    await this.recordShutdown(await this.reporter.stop());
  }

  private async run(row: OperationRow): Promise<void> {
    let settled: Settled;
    try {
      settled = { ok: true, value: await this.deps.handler.run(this.context(row)) };
    } catch (error) {
      settled = { ok: false, error };
    }
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    try {
      await this.record(settled, await this.reporter.stop());
    } catch (error) {
      // The lease runs out and recovery decides: resumed or failed, never RUNNING forever.
      this.deps.logger.error({ err: error, operationId: this.id }, 'recording an outcome failed');
    }
  }

  private context(row: OperationRow): OperationContext {
    const { store, clock } = this.deps;
    let checkpoint: unknown =
      row.checkpoint_json === null ? undefined : (JSON.parse(row.checkpoint_json) as unknown);
    const signal = this.controller.signal;
    return {
      operationId: row.id,
      tenant: row.tenant,
      kind: row.kind,
      targetId: row.target_id,
      request: JSON.parse(row.request_json) as unknown,
      createdBy: row.created_by,
      attempt: this.lease.attempt,
      signal,
      progress: (update) => {
        this.lastActivityAt = clock();
        this.reporter.report(update);
      },
      checkpoint: async (value) => {
        const json = JSON.stringify(value ?? null);
        if (!(await store.saveCheckpoint(this.lease, json, clock()))) {
          this.abort('lease');
          signal.throwIfAborted();
        }
        checkpoint = JSON.parse(json) as unknown;
        this.lastActivityAt = clock();
      },
      get checkpointValue() {
        return checkpoint;
      },
      throwIfCancelled: () => signal.throwIfAborted(),
    };
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.closed) return;
    this.renewing = true;
    const { store, clock, leaseMs, logger } = this.deps;
    try {
      const now = clock();
      const { held, cancelRequested } = await store.renew(this.lease, now, leaseMs);
      if (!held) this.abort('lease');
      else {
        this.leaseExpiresAt = now + leaseMs;
        if (cancelRequested) this.abort('cancel');
      }
    } catch (error) {
      logger.warn({ err: error, operationId: this.id }, 'renewing an operation lease failed');
      // Past the lease another runner may take the operation: stop before both run it.
      if (clock() >= this.leaseExpiresAt) this.abort('lease');
    } finally {
      this.renewing = false;
    }
  }

  private async record(settled: Settled, progress: OperationProgress): Promise<void> {
    const { logger } = this.deps;
    if (this.cause === 'lease') {
      logger.warn({ operationId: this.id }, 'operation lost its lease; outcome not recorded');
      return;
    }
    if (settled.ok) {
      let resultJson: string | null;
      try {
        resultJson = settled.value === undefined ? null : JSON.stringify(settled.value);
      } catch (error) {
        return this.fail({ error }, progress);
      }
      this.result = settled.value;
      return this.finish({ state: 'SUCCEEDED', resultJson, progress });
    }
    const { error } = settled;
    if (this.cause === 'shutdown') return this.recordShutdown(progress);
    if (this.cause === 'cancel') {
      return this.finish({
        state: 'CANCELLED',
        errorCode: CANCELLED_ERROR.code,
        errorMessage: CANCELLED_ERROR.message,
        progress,
      });
    }
    return this.fail({ error }, progress);
  }

  private async fail({ error }: { error: unknown }, progress: OperationProgress): Promise<void> {
    if (isStoreError(error)) {
      const { code, message } = error;
      return this.finish({ state: 'FAILED', errorCode: code, errorMessage: message, progress });
    }
    // Only StoreError messages are meant for callers; anything else may hold internals.
    this.deps.logger.error({ err: error, operationId: this.id }, 'operation failed');
    return this.finish({
      state: 'FAILED',
      errorCode: 'internal',
      errorMessage: INTERNAL_MESSAGE,
      progress,
    });
  }

  private async recordShutdown(progress: OperationProgress): Promise<void> {
    const { store, clock, handler } = this.deps;
    if (handler.resumable) {
      // Back to the queue: another replica, or this server's next start, resumes it.
      await this.retry(() => store.handBack(this.lease, clock(), progress));
      return;
    }
    await this.finish({
      state: 'FAILED',
      errorCode: 'aborted',
      errorMessage: 'the server running it was stopped (shutdown)',
      progress,
    });
  }

  private async finish(outcome: OperationOutcome): Promise<void> {
    const { store, clock, logger } = this.deps;
    const written = await this.retry(() => store.finish(this.lease, outcome, clock()));
    if (!written) {
      logger.warn({ operationId: this.id }, 'operation no longer held; outcome not recorded');
      return;
    }
    try {
      this.deps.onEnded?.({
        tenant: this.tenant,
        kind: this.kind,
        state: outcome.state,
        durationMs: Math.max(0, clock() - this.startedAt),
        result: this.result,
      });
    } catch (error) {
      logger.warn({ err: error, operationId: this.id }, 'counting an ended operation failed');
    }
  }

  /** A final write, retried briefly: a blip of the database should not cost a finished run. */
  private async retry(write: () => Promise<boolean>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const wait = FINAL_WRITE_RETRY_MS[attempt];
        if (wait === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
