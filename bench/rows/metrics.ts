// Rows 25 and 26 (issue 35, "metrics cost nothing measurable"). Row 25: status polls and PutEntry
// against a server with its Prometheus metrics on (scraped as the shipped monitoring/prometheus.yml
// does, every 15 s, and once as each run starts, so every run pays at least one scrape) and one
// with them off, same run, rounds alternating. BENCH_SCRAPE_EVERY_MS=1000 gives the harsher
// once-a-second figure. Row 26: GET /metrics of a tenant with 1 000 trees (each
// with a schedule) and 100 000 backups, seeded straight into the catalog.
import { createClient } from '@connectrpc/connect';
import { TreeDataService } from '@store/contract';
import type { Dialect } from '../../server/src/storage/database.js';
import { startBenchServer, TENANT, type BenchServer } from '../lib/bench-server.js';
import type { LoadResult } from '../lib/load-loop.js';
import { openRawDb, type RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { percentile, since, sorted } from '../lib/stats.js';
import { withMainThreadCpu } from '../lib/thread-cpu.js';
import { runLoadInWorker, type LoadJob } from '../lib/worker-load.js';
import { catalogRow } from './catalog.js';
import { BENCH_TOKEN } from '../lib/bench-server.js';

const ROUNDS = 3;
/** The shipped scrape interval (monitoring/prometheus.yml `scrape_interval: 15s`). */
const SCRAPE_EVERY_MS = Number(process.env.BENCH_SCRAPE_EVERY_MS ?? 15_000);
const METRICS_ON = { STORE_METRICS_PORT: '0' };
const detail = (r: LoadResult) => `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`;
const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));

async function scrapeOnce(metricsUrl: string): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return response.text();
}

/** An operation of `s` to poll: a one-entry capture. */
async function operationToPoll(s: BenchServer): Promise<string> {
  await createClient(TreeDataService, s.grpc).putEntry({
    treeId: 'polled',
    key: 'k',
    valueJson: '1',
  });
  const { operationId } = await s.backup.startBackup({ name: 'poll', scope: { treeId: 'polled' } });
  await s.finish(operationId);
  return operationId;
}

/** Runs `job` against `s`; with metrics on, scrapes it as the run starts and every interval. */
async function loadOn(
  s: BenchServer,
  job: Omit<LoadJob, 'baseUrl' | 'operationId'>,
  operationId: string,
) {
  const metricsUrl = s.t.server.metricsUrl;
  let scrapes = 0;
  let scrapeError: unknown;
  const scrape = (url: string) =>
    scrapeOnce(url).then(
      () => scrapes++,
      (error: unknown) => (scrapeError ??= error),
    );
  const timer =
    metricsUrl === undefined
      ? undefined
      : (setTimeout(() => void scrape(metricsUrl), 200),
        setInterval(() => void scrape(metricsUrl), SCRAPE_EVERY_MS));
  try {
    const { result, cpuUs } = await withMainThreadCpu(() =>
      runLoadInWorker({ ...job, operationId, baseUrl: s.t.server.grpcUrl, token: BENCH_TOKEN }),
    );
    if (result.errors > 0) throw new Error(`${result.errors} errors (${result.firstError})`);
    if (scrapeError) throw scrapeError;
    return { result, scrapes, cpuUs };
  } finally {
    if (timer) clearInterval(timer);
  }
}

export async function metricsCostRows(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const [off, on] = await Promise.allSettled([
    startBenchServer(dialect),
    startBenchServer(dialect, METRICS_ON),
  ]).then(async (started) => {
    const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.all(up.map((s) => s.dispose()));
      throw failed.reason;
    }
    return up as [BenchServer, BenchServer];
  });
  try {
    if (on.t.server.metricsUrl === undefined || off.t.server.metricsUrl !== undefined)
      throw new Error('the metrics-on server must have a metrics listener, the other none');
    const [onOperation, offOperation] = await Promise.all([
      operationToPoll(on),
      operationToPoll(off),
    ]);
    const operations = { on: onOperation, off: offOperation };
    const rounds = sizes.smoke ? 1 : ROUNDS;
    const seconds = sizes.unarySeconds / 2;
    const warmupSeconds = Math.min(1, sizes.unarySeconds / 4);
    const plans = [
      {
        what: 'status poll over gRPC',
        job: { transport: 'grpc', plan: 'status', concurrency: sizes.unaryConcurrency },
      },
      {
        what: 'PutEntry over gRPC',
        job: { transport: 'grpc', plan: 'put', treeId: 'written', concurrency: 16 },
      },
    ] as const;
    const rows: BenchRow[] = [];
    for (const { what, job } of plans) {
      const runs = { on: [] as LoadResult[], off: [] as LoadResult[] };
      // The server's own thread's CPU per call over every round: what a busy machine does not
      // change, where throughput on it swings with the other work.
      const cpu = { on: { us: 0, calls: 0 }, off: { us: 0, calls: 0 } };
      let scrapes = 0;
      for (const side of ['on', 'off'] as const) {
        await loadOn(
          side === 'on' ? on : off,
          { ...job, seconds: warmupSeconds },
          operations[side],
        );
      }
      for (let round = 0; round < rounds; round++) {
        // Order swapped each round: neither side always runs right after the other.
        const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        for (const side of order) {
          const server = side === 'on' ? on : off;
          const done = await loadOn(server, { ...job, seconds }, operations[side]);
          runs[side].push(done.result);
          scrapes += side === 'on' ? done.scrapes : 0;
          cpu[side].us += done.cpuUs ?? NaN;
          cpu[side].calls += done.result.requests;
        }
      }
      const measured = best(runs.on);
      const baseline = best(runs.off);
      const cpuOn = cpu.on.us / cpu.on.calls;
      const cpuOff = cpu.off.us / cpu.off.calls;
      log(
        `${what}: metrics on ${measured.perSecond.toFixed(0)}/s, off ${baseline.perSecond.toFixed(0)}/s`,
      );
      rows.push({
        row: 25,
        name: `${what}, ${job.concurrency} callers, metrics on (scraped every ${SCRAPE_EVERY_MS / 1000} s)`,
        dialect,
        figure: measured.perSecond,
        unit: 'req/s',
        detail:
          `best of ${rounds}: ${detail(measured)}; ${scrapes} scrapes; server thread CPU ` +
          `${cpuOn.toFixed(0)} µs a call, off ${cpuOff.toFixed(0)} µs (×${(cpuOn / cpuOff).toFixed(3)})`,
        baselineName: `metrics off (${detail(baseline)})`,
        baseline: baseline.perSecond,
        ratio: measured.perSecond / baseline.perSecond,
        target: { kind: 'min', value: 0.95 },
      });
    }
    return rows;
  } finally {
    await on.dispose();
    await off.dispose();
  }
}

const SCRAPE_BUDGET_MS = 200;
const DAY_MS = 86_400_000;
/** Far enough ahead that no seeded schedule comes due while the row runs. */
const NEVER_DUE = 4_102_444_800_000;

/**
 * The tenant of row 26 (not measured): `backups` catalog rows spread over `trees` trees, their
 * health mixed, and a daily schedule on each tree (due long after the run).
 */
export async function seedMetricsTenant(raw: RawDb, trees: number, backups: number): Promise<void> {
  const treeName = (i: number) => `tree-${String(i % trees).padStart(5, '0')}`;
  const health = [null, 'HEALTHY', 'HEALTHY', 'CORRUPT', 'MISSING'] as const;
  const BATCH = 20_000;
  for (let start = 0; start < backups; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(backups, start + BATCH); i++) {
      rows.push({
        ...catalogRow(i),
        tree_name: treeName(i),
        physical_tree_id: `pt_${treeName(i)}`,
        last_health_status: health[i % health.length] ?? null,
      });
    }
    await raw.insertRows('backups', rows);
  }
  const scopes = Array.from({ length: trees }, (_, i) => ({
    tenant: TENANT,
    tree_name: treeName(i),
    key_prefix: '',
    full_interval_ms: DAY_MS,
    full_next_run_at: NEVER_DUE,
    incremental_interval_ms: null,
    incremental_next_run_at: null,
    last_full_run_at: null,
    last_full_success_at: null,
    last_incremental_run_at: null,
    last_incremental_success_at: null,
    last_outcome: 'SUCCEEDED',
    updated_at: Date.now(),
    anchor_minute_of_day: null,
    anchor_time_zone: null,
    name_template: null,
    capture_unchanged_incrementals: 0,
    last_run_reason: null,
  }));
  await raw.insertRows('backup_scopes', scopes);
  // As a database at rest is: statistics and visibility current, the write-ahead log written back.
  await raw.vacuum('backups');
  await raw.vacuum('backup_scopes');
  await raw.checkpoint();
}

export async function metricsScrapeRow(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const { metricsTrees: trees, metricsBackups: backups } = sizes;
  const s = await startBenchServer(dialect, METRICS_ON);
  const raw = await openRawDb(s.t.location);
  try {
    await seedMetricsTenant(raw, trees, backups);
    log(`seeded ${backups} backups over ${trees} scheduled trees`);
    const metricsUrl = s.t.server.metricsUrl as string;
    // What the scrape must show: every tree's last success and cadence (within the default
    // STORE_METRICS_MAX_SCOPES of 1 000), and the whole catalog.
    const text = await scrapeOnce(metricsUrl);
    const series = (name: string) =>
      text.split('\n').filter((l) => l.startsWith(`${name}{`)).length;
    if (series('store_backup_last_success_timestamp_seconds') !== trees)
      throw new Error('the scrape does not show every tree');
    if (series('store_schedule_cadence_seconds') !== trees)
      throw new Error('the scrape does not show every schedule');
    for (let i = 0; i < 3; i++) await scrapeOnce(metricsUrl);
    const times: number[] = [];
    // The process's CPU (server and this client together) is what a busy machine does not inflate.
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < sizes.metricsScrapes; i++) {
      const t0 = performance.now();
      await scrapeOnce(metricsUrl);
      times.push(since(t0));
    }
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000 / times.length;
    const ordered = sorted(times);
    const p50 = percentile(ordered, 50);
    return {
      row: 26,
      name: `GET /metrics, ${trees.toLocaleString('en-US')} scheduled trees, ${backups.toLocaleString('en-US')} backups`,
      dialect,
      figure: p50,
      unit: 'ms median',
      detail:
        `of ${times.length}: p90 ${percentile(ordered, 90).toFixed(1)} ms, worst ` +
        `${(ordered.at(-1) ?? NaN).toFixed(1)} ms; CPU ${cpuMs.toFixed(1)} ms a scrape; ` +
        `${(text.length / 1024).toFixed(0)} KiB`,
      baselineName: 'budget',
      baseline: SCRAPE_BUDGET_MS,
      ratio: p50 / SCRAPE_BUDGET_MS,
      target: { kind: 'max', value: 1 },
    };
  } finally {
    await raw.close();
    await s.dispose();
  }
}
