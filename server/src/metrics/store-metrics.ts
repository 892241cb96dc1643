import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StartedScheduledRun } from '../engines/backup/schedules/background-loops.js';
import type { EndedRun } from '../engines/operations/types.js';
import type { StoreReadings } from '../engines/store-readings.js';
import type { Logger } from '../logging/logger.js';
import type { CallMetrics } from '../transport/metrics-interceptor.js';
import { grpcServerMetrics } from './grpc-metrics.js';
import { operationKindLabel, runKindOf } from './metric-kinds.js';

export interface StoreMetricsOptions {
  /** STORE_METRICS_MAX_SCOPES: scopes (and dead-letter trees) with series of their own. */
  maxScopes: number;
  /** STORE_OPERATION_STUCK_AFTER_SECONDS in ms. */
  stuckAfterMs: number;
  logger: Logger;
  clock?: () => number;
}

/** Durations of backup runs: seconds to hours. */
const RUN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600];
/** How late a due schedule run started: a tick (≤ 5 s) is normal, minutes are not. */
const LAG_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
/** The kinds whose running gauge reads 0 rather than absent when none runs. */
const ALWAYS_LISTED_KINDS = ['capture', 'restore', 'verify'];

/**
 * The process's Prometheus metrics (docs/deployment.md, "Metrics"), in a registry of its own, so
 * servers sharing a process (tests) never share series. Counters count what this process saw
 * (runs it ended, schedule runs it started, deletions it made); gauges are read from the
 * database when scraped, bounded to `maxScopes` scopes.
 */
export class StoreMetrics {
  readonly registry = new Registry();
  /** The gRPC interceptor's sink. */
  readonly calls: CallMetrics;
  private readonly clock: () => number;
  private readings: StoreReadings | undefined;
  private scraping: Promise<string> | undefined;
  /** Scopes with a last-lag series, at most maxScopes of them. */
  private readonly lagScopes = new Set<string>();

  private readonly runs: Counter<'tenant' | 'kind' | 'outcome'>;
  private readonly runSeconds: Histogram<'kind'>;
  private readonly capturedBytes: Counter<'tenant'>;
  private readonly retentionDeleted: Counter<'tenant' | 'trigger'>;
  private readonly lag: Histogram<string>;
  private readonly lastLag: Gauge<'tenant' | 'scope'>;
  private readonly lastSuccess: Gauge<'tenant' | 'scope'>;
  private readonly oldestBackup: Gauge<'tenant' | 'scope'>;
  private readonly drillRuns: Counter<'tenant' | 'outcome'>;
  private readonly drillSeconds: Histogram<string>;
  private readonly lastProven: Gauge<'tenant' | 'scope'>;
  private readonly cadence: Gauge<'tenant' | 'scope' | 'kind'>;
  private readonly catalogBackups: Gauge<'tenant' | 'health'>;
  private readonly catalogBytes: Gauge<'tenant'>;
  private readonly running: Gauge<'kind'>;
  private readonly stuck: Gauge<'kind'>;
  private readonly deadLetters: Gauge<'tenant' | 'tree'>;
  private readonly dropped: Gauge;

  constructor(private readonly options: StoreMetricsOptions) {
    this.clock = options.clock ?? Date.now;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.calls = grpcServerMetrics(this.registry);
    this.runs = new Counter({
      name: 'store_backup_runs_total',
      help: 'Backup runs this process ended, by kind (capture, restore, verify, drill) and outcome.',
      labelNames: ['tenant', 'kind', 'outcome'] as const,
      registers,
    });
    this.runSeconds = new Histogram({
      name: 'store_backup_run_duration_seconds',
      help: 'How long the backup runs this process ended took, claim to end.',
      labelNames: ['kind'] as const,
      buckets: RUN_BUCKETS,
      registers,
    });
    this.capturedBytes = new Counter({
      name: 'store_backup_captured_bytes_total',
      help: 'Bytes of the backups captured by this process.',
      labelNames: ['tenant'] as const,
      registers,
    });
    this.retentionDeleted = new Counter({
      name: 'store_retention_deleted_backups_total',
      help: 'Backups deleted by retention in this process, by trigger (manual apply or automatic after a scheduled capture).',
      labelNames: ['tenant', 'trigger'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'store_scheduler_lag_seconds',
      help: 'How late each due schedule run this process started was started.',
      buckets: LAG_BUCKETS,
      registers,
    });
    this.lastLag = new Gauge({
      name: 'store_scheduler_last_lag_seconds',
      help: 'How late the last due run of the scope this process started was started.',
      labelNames: ['tenant', 'scope'] as const,
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'store_backup_last_success_timestamp_seconds',
      help: 'End time of the newest full or incremental backup of the scope in the catalog.',
      labelNames: ['tenant', 'scope'] as const,
      registers,
    });
    this.oldestBackup = new Gauge({
      name: 'store_backup_oldest_timestamp_seconds',
      help: 'End time of the oldest backup of the scope in the catalog (how long it has had backups).',
      labelNames: ['tenant', 'scope'] as const,
      registers,
    });
    this.drillRuns = new Counter({
      name: 'store_drill_runs_total',
      help: 'Restore drills this process ended, by outcome: proven, failed (a difference found, or the drill could not finish), cancelled.',
      labelNames: ['tenant', 'outcome'] as const,
      registers,
    });
    this.drillSeconds = new Histogram({
      name: 'store_drill_duration_seconds',
      help: 'How long the restore drills this process ended took, claim to end.',
      // A drill restores a whole backup: seconds to hours, as the other runs.
      buckets: RUN_BUCKETS,
      registers,
    });
    this.lastProven = new Gauge({
      name: 'store_drill_last_proven_timestamp_seconds',
      help: 'End time of the newest restore drill that proved a backup of the scope restorable (a tree; set members count under their trees).',
      labelNames: ['tenant', 'scope'] as const,
      registers,
    });
    this.cadence = new Gauge({
      name: 'store_schedule_cadence_seconds',
      help: 'The configured cadence of the active schedule of each kind of the scope.',
      labelNames: ['tenant', 'scope', 'kind'] as const,
      registers,
    });
    this.catalogBackups = new Gauge({
      name: 'store_catalog_backups',
      help: 'Backups in the catalog by health (healthy, corrupt, missing, unverified).',
      labelNames: ['tenant', 'health'] as const,
      registers,
    });
    this.catalogBytes = new Gauge({
      name: 'store_catalog_bytes',
      help: 'Bytes of the backups in the catalog.',
      labelNames: ['tenant'] as const,
      registers,
    });
    this.running = new Gauge({
      name: 'store_operations_running',
      help: 'Operations running in this process.',
      labelNames: ['kind'] as const,
      registers,
    });
    this.stuck = new Gauge({
      name: 'store_operations_stuck',
      help: 'Operations running in this process with no progress for longer than STORE_OPERATION_STUCK_AFTER_SECONDS.',
      labelNames: ['kind'] as const,
      registers,
    });
    this.deadLetters = new Gauge({
      name: 'store_dead_letters_pending',
      help: 'Dead letters neither replayed nor discarded, per tree.',
      labelNames: ['tenant', 'tree'] as const,
      registers,
    });
    this.dropped = new Gauge({
      name: 'store_metrics_scopes_dropped',
      help: 'Scopes and dead-letter trees left without series of their own (STORE_METRICS_MAX_SCOPES).',
      registers,
    });
  }

  /** Where the scrape-time gauges are read from (set once the engines exist). */
  readFrom(readings: StoreReadings): void {
    this.readings = readings;
  }

  /** The metrics in Prometheus' text format; concurrent scrapes share one read. */
  scrape(): Promise<string> {
    this.scraping ??= this.refresh()
      .then(() => this.registry.metrics())
      .finally(() => (this.scraping = undefined));
    return this.scraping;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts a run the operations runner ended (wired as OperationRunner's onRunEnded). */
  runEnded(run: EndedRun): void {
    const kind = runKindOf(run.kind);
    if (kind === undefined) return;
    const outcome = kind === 'drill' ? drillOutcomeOf(run) : run.state.toLowerCase();
    // A drill that found a difference is a failed run, as a failed capture is, though its
    // operation succeeded (it ran to the end and recorded why it failed).
    const runOutcome = outcome === 'proven' ? 'succeeded' : outcome;
    this.runs.inc({ tenant: run.tenant, kind, outcome: runOutcome });
    if (kind === 'drill') {
      this.drillRuns.inc({ tenant: run.tenant, outcome });
      this.drillSeconds.observe(run.durationMs / 1000);
    }
    this.runSeconds.observe({ kind }, run.durationMs / 1000);
    if (kind === 'capture' && run.state === 'SUCCEEDED') {
      this.capturedBytes.inc({ tenant: run.tenant }, capturedBytesOf(run.result));
    }
  }

  /** Counts a due schedule run this process started (wired as the engine's onScheduledRun). */
  scheduledRun(run: StartedScheduledRun): void {
    const seconds = run.lagMs / 1000;
    this.lag.observe(seconds);
    const key = JSON.stringify([run.tenant, run.treeName]);
    if (!this.lagScopes.has(key)) {
      if (this.lagScopes.size >= this.options.maxScopes) return;
      this.lagScopes.add(key);
    }
    this.lastLag.set({ tenant: run.tenant, scope: run.treeName }, seconds);
  }

  /** Counts a backup retention deleted: automatic when it followed a scheduled capture. */
  retentionDeletion(event: { tenant: string; scheduledCapture?: unknown }): void {
    const trigger = event.scheduledCapture === undefined ? 'manual' : 'automatic';
    this.retentionDeleted.inc({ tenant: event.tenant, trigger });
  }

  /** Sets the gauges read at scrape time from the database and this process's runs. */
  private async refresh(): Promise<void> {
    this.refreshOperations();
    const readings = this.readings;
    if (!readings) return;
    const { maxScopes } = this.options;
    try {
      const [scopes, catalog, letters, proven] = await Promise.all([
        readings.scopes(maxScopes),
        readings.catalog(),
        readings.deadLetters(maxScopes),
        readings.lastProven(),
      ]);
      const provenAt = new Map(
        proven.map((p) => [JSON.stringify([p.tenant, p.treeName]), p.lastProvenAt]),
      );
      this.lastSuccess.reset();
      this.oldestBackup.reset();
      this.lastProven.reset();
      this.cadence.reset();
      for (const scope of scopes.scopes) {
        const labels = { tenant: scope.tenant, scope: scope.treeName };
        if (scope.lastSuccessAt !== null) this.lastSuccess.set(labels, scope.lastSuccessAt / 1000);
        if (scope.oldestBackupAt !== null) {
          this.oldestBackup.set(labels, scope.oldestBackupAt / 1000);
        }
        // Bounded like the other scope series: only the scopes listed here have one.
        const lastProvenAt = provenAt.get(JSON.stringify([scope.tenant, scope.treeName]));
        if (lastProvenAt !== undefined) this.lastProven.set(labels, lastProvenAt / 1000);
        if (scope.fullIntervalMs !== null) {
          this.cadence.set({ ...labels, kind: 'full' }, scope.fullIntervalMs / 1000);
        }
        if (scope.incrementalIntervalMs !== null) {
          this.cadence.set({ ...labels, kind: 'incremental' }, scope.incrementalIntervalMs / 1000);
        }
      }
      this.catalogBackups.reset();
      this.catalogBytes.reset();
      for (const tenant of catalog) {
        for (const health of ['healthy', 'corrupt', 'missing', 'unverified'] as const) {
          this.catalogBackups.set({ tenant: tenant.tenant, health }, tenant[health]);
        }
        this.catalogBytes.set({ tenant: tenant.tenant }, tenant.bytes);
      }
      this.deadLetters.reset();
      for (const tree of letters.trees) {
        this.deadLetters.set({ tenant: tree.tenant, tree: tree.treeName }, tree.pending);
      }
      this.dropped.set(
        scopes.total - scopes.scopes.length + (letters.total - letters.trees.length),
      );
    } catch (error) {
      // The database away for a moment: the process's own metrics still answer.
      this.options.logger.warn({ err: error }, 'reading the catalog for metrics failed');
      for (const gauge of [this.lastSuccess, this.cadence, this.catalogBackups]) gauge.reset();
      for (const gauge of [this.oldestBackup, this.lastProven]) gauge.reset();
      for (const gauge of [this.catalogBytes, this.deadLetters, this.dropped]) gauge.reset();
    }
  }

  private refreshOperations(): void {
    const now = this.clock();
    const running = new Map<string, number>(ALWAYS_LISTED_KINDS.map((kind) => [kind, 0]));
    const stuck = new Map<string, number>(ALWAYS_LISTED_KINDS.map((kind) => [kind, 0]));
    for (const run of this.readings?.running() ?? []) {
      const kind = operationKindLabel(run.kind);
      running.set(kind, (running.get(kind) ?? 0) + 1);
      const late = now - run.lastActivityAt > this.options.stuckAfterMs ? 1 : 0;
      stuck.set(kind, (stuck.get(kind) ?? 0) + late);
    }
    this.running.reset();
    this.stuck.reset();
    for (const [kind, count] of running) this.running.set({ kind }, count);
    for (const [kind, count] of stuck) this.stuck.set({ kind }, count);
  }
}

/** A drill's outcome label: proven or failed as its result says, failed or cancelled as it ended. */
function drillOutcomeOf(run: EndedRun): 'proven' | 'failed' | 'cancelled' {
  if (run.state === 'CANCELLED') return 'cancelled';
  if (run.state === 'FAILED') return 'failed';
  const outcome = (run.result as { outcome?: unknown } | undefined)?.outcome;
  return outcome === 'PROVEN' ? 'proven' : 'failed';
}

/** The bytes a successful capture wrote: its backup's, or its set members' together. */
function capturedBytesOf(result: unknown): number {
  const sizeOf = (capture: unknown): number => {
    const size = (capture as { entry?: { manifest?: { byteSize?: unknown } } } | undefined)?.entry
      ?.manifest?.byteSize;
    return typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : 0;
  };
  const members = (result as { members?: unknown } | undefined)?.members;
  if (Array.isArray(members)) return members.reduce<number>((sum, m) => sum + sizeOf(m), 0);
  return sizeOf(result);
}
