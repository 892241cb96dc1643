import { spawnSync } from 'node:child_process';
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, StoreOperationState, durationFromMs } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { samplesOf, scrape, valueOf, type Sample } from './scrape.js';

const BACKUP_SERVICE = BackupControlService.typeName;

/** Waits until a scrape satisfies `ready`, and returns its samples. */
async function scrapeUntil(
  s: BackupServer,
  ready: (samples: Sample[]) => boolean,
  timeoutMs = 20_000,
): Promise<Sample[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { samples } = await scrape(s.t.server.metricsUrl);
    if (ready(samples)) return samples;
    if (Date.now() > deadline) throw new Error('the metrics never showed what was awaited');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DIALECTS)('Prometheus metrics on %s', (dialect) => {
  let s: BackupServer;
  let before: number;
  let after: number;
  beforeAll(async () => {
    s = await startBackupServer(dialect, {
      STORE_METRICS_PORT: '0',
      // A test-only scheduler minimum of 1 s, so a schedule fires within the test.
      STORE_SCHEDULER_MIN_INTERVAL: '1',
    });
    await s.put('orders', { a: 1, b: { n: 2 } });
    before = Date.now();
    const started = await s.backup.startBackup({ name: 'nightly', scope: { treeId: 'orders' } });
    const status = await s.finish(started.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    after = Date.now();
    // Refused: a scope that is no tree name, and a credential nobody issued.
    expect(await codeOf(s.backup.startBackup({ name: 'x', scope: { treeId: '../x' } }))).toBe(
      Code.InvalidArgument,
    );
    const stranger = createClient(
      BackupControlService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor('not-a-token-of-this-server-0123456789')],
      }),
    );
    expect(await codeOf(stranger.listBackups({}))).toBe(Code.Unauthenticated);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('counts every call by service, method, type and final code, with its duration', async () => {
    const { samples, contentType } = await scrape(s.t.server.metricsUrl);
    expect(contentType).toContain('text/plain');
    const call = { grpc_service: BACKUP_SERVICE, grpc_method: 'StartBackup', grpc_type: 'unary' };
    expect(valueOf(samples, 'grpc_server_started_total', call)).toBe(2);
    expect(valueOf(samples, 'grpc_server_handled_total', { ...call, grpc_code: 'OK' })).toBe(1);
    expect(
      valueOf(samples, 'grpc_server_handled_total', { ...call, grpc_code: 'InvalidArgument' }),
    ).toBe(1);
    expect(valueOf(samples, 'grpc_server_handling_seconds_count', call)).toBe(2);
    expect(
      valueOf(samples, 'grpc_server_handled_total', {
        grpc_service: BACKUP_SERVICE,
        grpc_method: 'ListBackups',
        grpc_code: 'Unauthenticated',
      }),
    ).toBe(1);
  });

  it("reads the scope's last success and the catalog from the database", async () => {
    const { samples } = await scrape(s.t.server.metricsUrl);
    const scope = { tenant: 'default', scope: 'orders' };
    const lastSuccess = valueOf(samples, 'store_backup_last_success_timestamp_seconds', scope);
    expect(lastSuccess).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(lastSuccess).toBeLessThanOrEqual(after / 1000);
    const byHealth = samplesOf(samples, 'store_catalog_backups', { tenant: 'default' });
    expect(byHealth.map((sample) => sample.labels.health).sort()).toEqual([
      'corrupt',
      'healthy',
      'missing',
      'unverified',
    ]);
    expect(byHealth.reduce((sum, sample) => sum + sample.value, 0)).toBe(1);
    const bytes = valueOf(samples, 'store_catalog_bytes', { tenant: 'default' });
    expect(bytes).toBeGreaterThan(0);
    expect(valueOf(samples, 'store_metrics_scopes_dropped')).toBe(0);
  });

  it('counts the runs this process ended, their bytes and what runs now', async () => {
    const { samples } = await scrape(s.t.server.metricsUrl);
    const capture = { tenant: 'default', kind: 'capture' };
    expect(valueOf(samples, 'store_backup_runs_total', { ...capture, outcome: 'succeeded' })).toBe(
      1,
    );
    expect(valueOf(samples, 'store_backup_run_duration_seconds_count', { kind: 'capture' })).toBe(
      1,
    );
    expect(valueOf(samples, 'store_backup_captured_bytes_total', { tenant: 'default' })).toBe(
      valueOf(samples, 'store_catalog_bytes', { tenant: 'default' }),
    );
    expect(valueOf(samples, 'store_operations_running', { kind: 'capture' })).toBe(0);
    expect(valueOf(samples, 'store_operations_stuck', { kind: 'capture' })).toBe(0);
  });

  it('exports the process and Node metrics prom-client ships', async () => {
    const { samples } = await scrape(s.t.server.metricsUrl);
    expect(valueOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('shows a schedule: its cadence, and how late its due run started', async () => {
    await s.put('sched', { a: 1 });
    await s.backup.scheduleBackup({
      scope: { treeId: 'sched' },
      incremental: false,
      interval: durationFromMs(1000),
    });
    try {
      const scope = { tenant: 'default', scope: 'sched' };
      const samples = await scrapeUntil(
        s,
        (found) =>
          valueOf(found, 'store_scheduler_last_lag_seconds', scope) !== undefined &&
          valueOf(found, 'store_backup_last_success_timestamp_seconds', scope) !== undefined,
      );
      expect(valueOf(samples, 'store_schedule_cadence_seconds', { ...scope, kind: 'full' })).toBe(
        1,
      );
      expect(valueOf(samples, 'store_scheduler_lag_seconds_count')).toBeGreaterThanOrEqual(1);
      // A tick is at most a quarter of the minimum interval: the run started within seconds.
      expect(valueOf(samples, 'store_scheduler_last_lag_seconds', scope)).toBeLessThan(10);
    } finally {
      await s.backup.cancelSchedule({ scope: { treeId: 'sched' }, incremental: false });
    }
  });

  it('answers 404 anywhere but GET /metrics', async () => {
    const base = s.t.server.metricsUrl as string;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('passes promtool check metrics (only prom-client’s own gauges named *_total are flagged)', async () => {
    const { text } = await scrape(s.t.server.metricsUrl);
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.error).toBeUndefined();
    const problems = `${checked.stdout}\n${checked.stderr}`
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    // prom-client's default gauges nodejs_active_{handles,requests,resources}_total keep the
    // names they ship with (docs/deployment.md, "Metrics"); nothing of the store's is flagged.
    const ours = problems.filter(
      (line) => !/^nodejs_active_(handles|requests|resources)_total\b/.test(line),
    );
    expect(ours).toEqual([]);
  });
});

describe.each(DIALECTS)('metrics cardinality on %s', (dialect) => {
  let s: BackupServer;
  const TREES = 2000;
  const MAX_SCOPES = 100;
  beforeAll(async () => {
    s = await startBackupServer(dialect, {
      STORE_METRICS_PORT: '0',
      STORE_METRICS_MAX_SCOPES: String(MAX_SCOPES),
    });
    // 2 000 trees with a backup each, written straight into the catalog (captures would take
    // minutes): what a tenant with many trees looks like to a scrape.
    const rows = Array.from({ length: TREES }, (_, i) => ({
      tenant: 'default',
      id: `bk_many_${i}`,
      name: `many-${i}`,
      kind: 'FULL',
      tree_name: `tree-${String(i).padStart(4, '0')}`,
      key_prefix: null,
      base_backup_id: null,
      set_id: null,
      physical_tree_id: `pt-${i}`,
      created_at: 1_700_000_000_000 + i,
      completed_at: 1_700_000_001_000 + i,
      to_sequence: 1,
      manifest_json: '{}',
      last_health_status: null,
      last_verified_at: null,
      health_report_json: null,
      health_monitoring: 0,
      health_interval_ms: null,
      health_next_check_at: null,
      operation_id: null,
      byte_size: 10,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await s.t.server.storage.db
        .insertInto('backups')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('exports at most STORE_METRICS_MAX_SCOPES scopes and counts the rest as dropped', async () => {
    const { samples } = await scrape(s.t.server.metricsUrl);
    const lastSuccess = samplesOf(samples, 'store_backup_last_success_timestamp_seconds');
    expect(lastSuccess).toHaveLength(MAX_SCOPES);
    expect(new Set(lastSuccess.map((sample) => sample.labels.scope)).size).toBe(MAX_SCOPES);
    expect(valueOf(samples, 'store_metrics_scopes_dropped')).toBe(TREES - MAX_SCOPES);
    // The first scopes by tenant and tree, each with its own newest backup.
    expect(
      valueOf(samples, 'store_backup_last_success_timestamp_seconds', {
        tenant: 'default',
        scope: 'tree-0000',
      }),
    ).toBe(1_700_000_001);
    // Per-tenant figures stay whole: one series per health, whatever the tree count.
    expect(
      valueOf(samples, 'store_catalog_backups', { tenant: 'default', health: 'unverified' }),
    ).toBe(TREES);
    expect(valueOf(samples, 'store_catalog_bytes', { tenant: 'default' })).toBe(TREES * 10);
  });
});
