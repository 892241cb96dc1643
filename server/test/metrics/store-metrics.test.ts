import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { StoreReadings } from '../../src/engines/store-readings.js';
import { parseSamples, samplesOf, valueOf } from './scrape.js';
import { StoreMetrics } from '../../src/metrics/store-metrics.js';

const logger = pino({ level: 'silent' });
const NOW = 1_000_000;

function metricsWith(
  options: {
    maxScopes?: number;
    running?: ReturnType<StoreReadings['running']>;
    scopes?: Awaited<ReturnType<StoreReadings['scopes']>>['scopes'];
    lastProven?: Awaited<ReturnType<StoreReadings['lastProven']>>;
  } = {},
) {
  const metrics = new StoreMetrics({
    maxScopes: options.maxScopes ?? 10,
    stuckAfterMs: 60_000,
    logger,
    clock: () => NOW,
  });
  metrics.readFrom({
    scopes: async () => ({ scopes: options.scopes ?? [], total: options.scopes?.length ?? 0 }),
    lastProven: async () => options.lastProven ?? [],
    catalog: async () => [],
    deadLetters: async () => ({ trees: [], total: 0 }),
    running: () => options.running ?? [],
  } as unknown as StoreReadings);
  return { metrics };
}

const scrapeOf = async (metrics: StoreMetrics) => parseSamples(await metrics.scrape());

describe('store metrics', () => {
  it('counts backup runs by kind and outcome, and only backup runs', async () => {
    const { metrics } = metricsWith();
    const run = { tenant: 'acme', durationMs: 2500, result: undefined };
    metrics.runEnded({ ...run, kind: 'RESTORE', state: 'FAILED' });
    metrics.runEnded({ ...run, kind: 'COLD_RESTORE', state: 'CANCELLED' });
    metrics.runEnded({ ...run, kind: 'BACKUP_HEALTH_CHECK', state: 'SUCCEEDED' });
    metrics.runEnded({ ...run, kind: 'COMPLIANCE_SCAN', state: 'SUCCEEDED' });
    metrics.runEnded({
      ...run,
      kind: 'BACKUP_SET',
      state: 'SUCCEEDED',
      result: {
        members: [
          { entry: { manifest: { byteSize: 7 } } },
          { entry: { manifest: { byteSize: 5 } } },
        ],
      },
    });
    const samples = await scrapeOf(metrics);
    const runs = (kind: string, outcome: string) =>
      valueOf(samples, 'store_backup_runs_total', { tenant: 'acme', kind, outcome });
    expect(runs('restore', 'failed')).toBe(1);
    expect(runs('restore', 'cancelled')).toBe(1);
    expect(runs('verify', 'succeeded')).toBe(1);
    expect(runs('capture', 'succeeded')).toBe(1);
    expect(
      samplesOf(samples, 'store_backup_runs_total')
        .map((s) => s.labels.kind)
        .sort(),
    ).toEqual(['capture', 'restore', 'restore', 'verify']);
    expect(valueOf(samples, 'store_backup_captured_bytes_total', { tenant: 'acme' })).toBe(12);
    expect(valueOf(samples, 'store_backup_run_duration_seconds_sum', { kind: 'restore' })).toBe(5);
  });

  it('counts drills by outcome as their result says, and as failed backup-family runs when they fail', async () => {
    const { metrics } = metricsWith();
    const run = { tenant: 'acme', kind: 'RESTORE_DRILL', durationMs: 4000 };
    metrics.runEnded({ ...run, state: 'SUCCEEDED', result: { outcome: 'PROVEN' } });
    metrics.runEnded({ ...run, state: 'SUCCEEDED', result: { outcome: 'FAILED' } });
    metrics.runEnded({ ...run, state: 'FAILED', result: undefined });
    metrics.runEnded({ ...run, state: 'CANCELLED', result: undefined });
    const samples = await scrapeOf(metrics);
    const drills = (outcome: string) =>
      valueOf(samples, 'store_drill_runs_total', { tenant: 'acme', outcome });
    expect([drills('proven'), drills('failed'), drills('cancelled')]).toEqual([1, 2, 1]);
    const runs = (outcome: string) =>
      valueOf(samples, 'store_backup_runs_total', { tenant: 'acme', kind: 'drill', outcome });
    expect([runs('succeeded'), runs('failed'), runs('cancelled')]).toEqual([1, 2, 1]);
    expect(valueOf(samples, 'store_drill_duration_seconds_count')).toBe(4);
    expect(valueOf(samples, 'store_drill_duration_seconds_sum')).toBe(16);
  });

  it('reads the last proven drill and the oldest backup per listed scope, none for others', async () => {
    const scope = (treeName: string, oldestBackupAt: number | null) => ({
      tenant: 'acme',
      treeName,
      lastSuccessAt: oldestBackupAt,
      oldestBackupAt,
      fullIntervalMs: null,
      incrementalIntervalMs: null,
    });
    const { metrics } = metricsWith({
      scopes: [scope('orders', 2000), scope('set:nightly', 3000), scope('never', 4000)],
      lastProven: [
        { tenant: 'acme', treeName: 'orders', lastProvenAt: 5000 },
        // Beyond the bound (not a listed scope): no series.
        { tenant: 'acme', treeName: 'unlisted', lastProvenAt: 6000 },
      ],
    });
    const samples = await scrapeOf(metrics);
    expect(
      samplesOf(samples, 'store_drill_last_proven_timestamp_seconds').map((s) => [
        s.labels.scope,
        s.value,
      ]),
    ).toEqual([['orders', 5]]);
    expect(
      samplesOf(samples, 'store_backup_oldest_timestamp_seconds').map((s) => [
        s.labels.scope,
        s.value,
      ]),
    ).toEqual([
      ['orders', 2],
      ['set:nightly', 3],
      ['never', 4],
    ]);
  });

  it('counts retention deletions by trigger', async () => {
    const { metrics } = metricsWith();
    metrics.retentionDeletion({ tenant: 'acme' });
    metrics.retentionDeletion({ tenant: 'acme', scheduledCapture: { name: 'n' } });
    metrics.retentionDeletion({ tenant: 'acme', scheduledCapture: { name: 'm' } });
    const samples = await scrapeOf(metrics);
    const deleted = (trigger: string) =>
      valueOf(samples, 'store_retention_deleted_backups_total', { tenant: 'acme', trigger });
    expect([deleted('manual'), deleted('automatic')]).toEqual([1, 2]);
  });

  it('keeps a last-lag series for at most maxScopes scopes; the histogram counts every run', async () => {
    const { metrics } = metricsWith({ maxScopes: 2 });
    for (const treeName of ['a', 'b', 'c', 'a']) {
      metrics.scheduledRun({ tenant: 't', treeName, keyPrefix: '', kind: 'full', lagMs: 1500 });
    }
    const samples = await scrapeOf(metrics);
    expect(
      samplesOf(samples, 'store_scheduler_last_lag_seconds').map((s) => s.labels.scope),
    ).toEqual(['a', 'b']);
    expect(valueOf(samples, 'store_scheduler_lag_seconds_count')).toBe(4);
    expect(valueOf(samples, 'store_scheduler_lag_seconds_sum')).toBe(6);
  });

  it('counts running operations and those without progress past the stuck threshold', async () => {
    const now = NOW;
    const { metrics } = metricsWith({
      running: [
        { kind: 'BACKUP', lastActivityAt: now - 1000 },
        { kind: 'INCREMENTAL_BACKUP', lastActivityAt: now - 120_000 },
        { kind: 'RETENTION_APPLY', lastActivityAt: now - 120_000 },
      ],
    });
    const samples = await scrapeOf(metrics);
    expect(valueOf(samples, 'store_operations_running', { kind: 'capture' })).toBe(2);
    expect(valueOf(samples, 'store_operations_stuck', { kind: 'capture' })).toBe(1);
    expect(valueOf(samples, 'store_operations_stuck', { kind: 'retention_apply' })).toBe(1);
    expect(valueOf(samples, 'store_operations_running', { kind: 'restore' })).toBe(0);
  });
});
