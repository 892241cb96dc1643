import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { StoreReadings } from '../../src/engines/store-readings.js';
import { parseSamples, samplesOf, valueOf } from './scrape.js';
import { StoreMetrics } from '../../src/metrics/store-metrics.js';

const logger = pino({ level: 'silent' });
const NOW = 1_000_000;

function metricsWith(
  options: { maxScopes?: number; running?: ReturnType<StoreReadings['running']> } = {},
) {
  const metrics = new StoreMetrics({
    maxScopes: options.maxScopes ?? 10,
    stuckAfterMs: 60_000,
    logger,
    clock: () => NOW,
  });
  metrics.readFrom({
    scopes: async () => ({ scopes: [], total: 0 }),
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
