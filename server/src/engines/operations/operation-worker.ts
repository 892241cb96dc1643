import type { OperationStore, ResumePolicy } from '../../storage/operations/operation-store.js';
import { OperationExecution, type AbortCause } from './operation-execution.js';
import type { HandlerRegistry } from './registry.js';
import { TenantTurns } from './tenant-turns.js';
import { PREVIEW_OPERATION_KINDS } from '../operation-kinds.js';
import type { EndedRun, OperationLogger, RunningRun } from './types.js';

export interface WorkerConfig {
  store: OperationStore;
  registry: HandlerRegistry;
  owner: string;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
  /** Of those, how many may be previews, comparisons and dry-runs at once. */
  previewSlots: number;
  retentionMs: number;
  maxAttempts: number;
  reclaimOnStart: boolean;
  clock: () => number;
  logger: OperationLogger;
  onRunEnded?: ((run: EndedRun) => void) | undefined;
}

const RETENTION_SWEEP_MS = 10 * 60_000;
const ORPHAN_BATCH = 100;
const PREVIEW_KINDS: ReadonlySet<string> = new Set(PREVIEW_OPERATION_KINDS);
/** What the worker may try to claim: a queued operation, or an expired resumable run. */
type Candidate = { id: string; attempts: number; kind: string };
/** Queued rows read at least, so tenants tied on share are all seen by the fair pick. */
const QUEUE_READ_MIN = 32;
/** After aborting on shutdown, how long handlers get to notice before they are abandoned. */
const ABORT_SETTLE_MS = 2_000;

/**
 * The loop that claims queued (and resumable orphaned) operations and runs them, up to the
 * concurrency limit, renewing leases and passing cancel requests from any replica to handlers.
 */
export class OperationWorker {
  private readonly executions = new Map<string, OperationExecution>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private wakeAgain = false;
  private started = false;
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private reclaimPending: boolean;
  private lastRetentionAt = -Infinity;
  private claiming = 0;
  /** Previews running here or being claimed: they may hold at most `previewSlots` slots. */
  private readonly previews = new Set<string>();
  private readonly turns = new TenantTurns();

  constructor(private readonly config: WorkerConfig) {
    this.reclaimPending = config.reclaimOnStart;
  }

  /** Begins polling; the first look for work happens at once. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(0);
  }

  /** Looks for work now instead of at the next poll (a local submit, a freed slot). */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.ticking) this.wakeAgain = true;
    else this.schedule(0);
  }

  /**
   * A run just submitted on this server: claimed here at once when a slot is free and nothing
   * else is queued, without the poll's reads of cancels, orphans and the queue (three round
   * trips before every operation starts). When other runs are queued, the fairest of them are
   * claimed instead (one read of the queue): a tenant submitting in a loop must not take each
   * slot the moment it frees, ahead of other tenants' queued work. With no free slot, or when
   * another replica got there first, the next look decides.
   */
  offer(candidate: Candidate): void {
    // Before the first poll has expired a previous start's leases, only the poll may claim.
    if (!this.started || this.stopped || this.reclaimPending || this.freeSlots() <= 0) {
      this.wake();
      return;
    }
    void this.claimOffered(candidate)
      .catch((error: unknown) => {
        this.config.logger.warn({ err: error }, 'claiming a submitted operation failed');
      })
      .finally(() => {
        if (!this.executions.has(candidate.id)) this.wake();
      });
  }

  private async claimOffered(candidate: Candidate): Promise<void> {
    const policy = this.resumePolicy();
    await this.claim([candidate], policy, this.config.registry.kinds());
    if (this.executions.has(candidate.id)) return;
    await this.claim(await this.queued(), policy);
  }

  /** Aborts a run of this process, if it runs here. */
  abortLocal(id: string, cause: AbortCause): void {
    this.executions.get(id)?.abort(cause);
  }

  /** Ids of the operations running in this process now. */
  runningIds(): string[] {
    return [...this.executions.keys()];
  }

  /** The runs in progress in this process: their kinds and last signs of life. */
  running(): RunningRun[] {
    return [...this.executions.values()].map(({ kind, lastActivityAt }) => ({
      kind,
      lastActivityAt,
    }));
  }

  /** Stops claiming, gives running handlers graceMs, then aborts and hands back what is left. */
  stop(graceMs: number): Promise<void> {
    this.stopping ??= this.shutdown(graceMs);
    return this.stopping;
  }

  /** Deletes finished operations older than the retention; returns how many. */
  async purgeExpired(): Promise<number> {
    const { store, clock, retentionMs } = this.config;
    return store.deleteFinishedBefore(clock() - retentionMs);
  }

  private async shutdown(graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.settle(graceMs);
    for (const execution of this.executions.values()) execution.abort('shutdown');
    await this.settle(Math.min(ABORT_SETTLE_MS, Math.max(graceMs, 100)));
    await Promise.all([...this.executions.values()].map((e) => e.abandon()));
  }

  private async settle(ms: number): Promise<void> {
    if (this.executions.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.executions.values()].map((e) => e.done)),
      new Promise((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.runTick(), delay);
  }

  private runTick(): void {
    this.ticking = this.tick()
      .catch((error: unknown) => {
        // The database may be away for a moment; the next poll tries again.
        this.config.logger.warn({ err: error }, 'operation worker poll failed');
      })
      .finally(() => {
        this.ticking = undefined;
        if (this.stopped) return;
        const { pollMs } = this.config;
        // Jitter keeps replicas that started together from polling in lockstep.
        this.schedule(this.wakeAgain ? 0 : pollMs * (0.75 + Math.random() * 0.5));
        this.wakeAgain = false;
      });
  }

  private async tick(): Promise<void> {
    const { store, clock, logger } = this.config;
    if (this.reclaimPending) {
      const count = await store.expireAllLeases();
      this.reclaimPending = false;
      if (count > 0) logger.info({ count }, 'operations left running by a previous start');
    }
    await this.pollCancels();
    const now = clock();
    const policy = this.resumePolicy();
    const resumable = await this.recoverOrphans(now, policy);
    await this.claim([...resumable, ...(await this.queued())], policy);
    if (now - this.lastRetentionAt >= RETENTION_SWEEP_MS) {
      this.lastRetentionAt = now;
      const count = await this.purgeExpired();
      if (count > 0) logger.info({ count }, 'deleted finished operations past retention');
    }
  }

  private resumePolicy(): ResumePolicy {
    return {
      resumableKinds: this.config.registry.resumableKinds(),
      maxAttempts: this.config.maxAttempts,
    };
  }

  /** Slots a claim may still take: claims in flight hold their slot while they wait. */
  private freeSlots(): number {
    return this.config.concurrency - this.executions.size - this.claiming;
  }

  /** Cancel requests made on any replica reach the handlers running here. */
  private async pollCancels(): Promise<void> {
    const ids = await this.config.store.cancelRequested(this.runningIds());
    for (const id of ids) this.abortLocal(id, 'cancel');
  }

  /** Ends expired runs that will not resume; returns the ones that may be claimed again. */
  private async recoverOrphans(now: number, policy: ResumePolicy) {
    const { store, logger } = this.config;
    const expired = (await store.findExpired(now, ORPHAN_BATCH)).filter(
      (row) => !this.executions.has(row.id),
    );
    const resumable = expired.filter(
      (row) =>
        row.cancel_requested === 0 &&
        row.attempts < policy.maxAttempts &&
        policy.resumableKinds.includes(row.kind),
    );
    if (resumable.length < expired.length) {
      await this.settleCompleted(
        expired.filter((row) => row.cancel_requested === 0 && !resumable.includes(row)),
        now,
      );
      const count = await store.failOrphans(now, policy);
      if (count > 0) logger.warn({ count }, 'ended interrupted operations that cannot resume');
    }
    return resumable;
  }

  /** Interrupted runs whose handler finds their work done end SUCCEEDED, not FAILED. */
  private async settleCompleted(
    rows: ReadonlyArray<{ id: string; tenant: string; kind: string; request_json: string }>,
    now: number,
  ) {
    const { store, registry, logger } = this.config;
    for (const row of rows) {
      const check = registry.find(row.kind)?.completedBeforeInterruption;
      if (!check) continue;
      try {
        const request: unknown = JSON.parse(row.request_json);
        const result = await check({ id: row.id, tenant: row.tenant, request });
        if (result === undefined) continue;
        if (await store.succeedOrphan(row.id, now, JSON.stringify(result))) {
          logger.info({ operationId: row.id }, 'interrupted operation had completed its work');
        }
      } catch (error) {
        logger.error({ err: error, operationId: row.id }, 'could not check an interrupted run');
      }
    }
  }

  private async queued() {
    const free = this.freeSlots();
    if (free <= 0 || this.stopped) return [];
    // More than the free slots: other replicas may win some of the same rows.
    const rows = await this.config.store.findQueued(
      this.config.registry.kinds(),
      Math.max(free * 4, QUEUE_READ_MIN),
    );
    return this.turns.order(rows);
  }

  private async claim(candidates: Candidate[], policy: ResumePolicy, alone?: readonly string[]) {
    const { store, registry, owner, leaseMs, clock, logger } = this.config;
    for (const candidate of candidates) {
      if (this.stopped || this.freeSlots() <= 0) return;
      if (this.executions.has(candidate.id)) continue;
      // Previews hold at most previewSlots of this process's slots: they read a whole backup
      // on this thread, and a tenant at its preview cap must leave room for others' work.
      const preview = PREVIEW_KINDS.has(candidate.kind);
      if (preview && this.previews.size >= this.config.previewSlots) continue;
      if (preview) this.previews.add(candidate.id);
      // A direct claim (offer) and a poll may run at once: each holds its slot while it waits.
      this.claiming += 1;
      let row;
      try {
        row = await store.claim(candidate, owner, clock(), leaseMs, policy, alone);
      } finally {
        this.claiming -= 1;
      }
      const handler = row && registry.find(row.kind);
      if (!row || !handler) {
        this.previews.delete(candidate.id);
        continue;
      }
      this.turns.servedNow(row.tenant);
      if (row.attempts > 1) logger.info({ operationId: row.id, attempt: row.attempts }, 'resuming');
      const execution = new OperationExecution(
        { store, handler, owner, leaseMs, clock, logger, onEnded: this.config.onRunEnded },
        row,
      );
      this.executions.set(row.id, execution);
      void execution.done.finally(() => {
        this.executions.delete(row.id);
        this.previews.delete(row.id);
        this.wake();
      });
    }
  }
}
