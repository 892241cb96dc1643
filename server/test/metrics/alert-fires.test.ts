// Issue 35, bullet 3 end to end: a real Prometheus scrapes a real server with the shipped alert
// rules, a backup really fails, and the alert fires in Prometheus' own API. Issue 36 bullet 6:
// StoreScopeNotProven fires there too for a tree with 8-day-old backups and no proof.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgePrometheusConfig } from '../../../scripts/edge/prometheus-config.js';
import {
  findPrometheus,
  PROMETHEUS_INSTALL,
  startPrometheus,
} from '../../../scripts/edge/prometheus.js';
import type { Managed } from '../../../scripts/edge/processes.js';
import { insertBackupIfAbsent } from '../../src/storage/backup/backup-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { prometheusAlerts, prometheusQuery, waitFor } from './prometheus-api.js';

describe.each(DIALECTS)('StoreBackupFailed in a real Prometheus on %s', (dialect) => {
  let dir: string;
  let s: BackupServer;
  let prometheus: { prometheus: Managed; url: string };
  beforeAll(async () => {
    const binary = findPrometheus();
    // Not skipped: a silent skip would leave the alert path untested.
    if (!binary) throw new Error(`prometheus is not installed: ${PROMETHEUS_INSTALL}`);
    dir = await mkdtemp(join(tmpdir(), 'store-alert-'));
    // The artifact location is a regular file: every capture fails writing its first artifact,
    // as on a disk mounted read-only or a path taken by something else.
    const artifactDir = join(dir, 'artifacts');
    await writeFile(artifactDir, 'not a directory\n');
    s = await startBackupServer(dialect, {
      STORE_METRICS_PORT: '0',
      STORE_ARTIFACT_DIR: artifactDir,
    });
    await s.put('orders', { a: 1 });
    const metricsPort = Number(new URL(s.t.server.metricsUrl ?? '').port);
    // The shipped monitoring/prometheus.yml with the shipped rules as they are (StoreBackupFailed
    // has no `for:`), only faster: scrape and evaluate every second, and no Envoy job (no Envoy).
    const config = edgePrometheusConfig({ replicaMetricsPorts: [metricsPort], envoyAdminPort: 0 });
    config.global = { scrape_interval: '1s', evaluation_interval: '1s' };
    config.scrape_configs = (config.scrape_configs as { job_name: string }[]).filter(
      (job) => job.job_name === 'store',
    );
    const configFile = join(dir, 'prometheus.yml');
    await writeFile(configFile, JSON.stringify(config));
    prometheus = await startPrometheus(binary, dir, dir, configFile);
  });
  afterAll(async () => {
    await prometheus?.prometheus.stop();
    await s?.t.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function failedCapture(): Promise<void> {
    const started = await s.backup.startBackup({ name: 'nightly', scope: { treeId: 'orders' } });
    const status = await s.finish(started.operationId);
    expect(status.state).toBe(StoreOperationState.FAILED);
    // A cause the operator can fix, in words (the alert's description quotes it).
    expect(status.error?.code).toBe('failed_precondition');
    expect(status.error?.message).toContain('a file stands where a folder should be');
  }

  it('fires with the tenant once captures fail, and not before', async () => {
    const { url } = prometheus;
    await waitFor('Prometheus to scrape the server', async () => {
      const up = await prometheusQuery(url, 'up{job="store"}');
      return up.length === 1 && up[0]?.value[1] === '1';
    });
    expect(await prometheusAlerts(url, 'StoreBackupFailed')).toEqual([]);

    // A failure counter's series starts at 1 with its first failure: to a Prometheus that has
    // only just started that is no increase (the rule's own comment says why), so the first
    // failure is seen scraped before the second one makes the increase the rule alerts on.
    await failedCapture();
    await waitFor('Prometheus to see the first failure', async () => {
      const failed = await prometheusQuery(
        url,
        'store_backup_runs_total{kind="capture",outcome="failed"}',
      );
      return failed[0]?.value[1] === '1';
    });
    await failedCapture();

    const firing = await waitFor('StoreBackupFailed to fire', async () => {
      const alerts = await prometheusAlerts(url, 'StoreBackupFailed');
      return alerts.find((alert) => alert.state === 'firing');
    });
    expect(firing.labels).toEqual({
      alertname: 'StoreBackupFailed',
      severity: 'warning',
      tenant: 'default',
    });
    expect(firing.annotations.summary).toBe('A backup of tenant default failed');
  });

  it('StoreScopeNotProven fires for a tree whose backups are 8 days old and never proven', async () => {
    const { url } = prometheus;
    expect(await prometheusAlerts(url, 'StoreScopeNotProven')).toEqual([]);
    // Eight days of backups cannot be waited for: the catalog row of one is seeded, as the
    // bench seeds catalogs (its artifacts are not needed: nothing restores it here).
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    await insertBackupIfAbsent(s.t.server.storage, {
      tenant: 'default',
      id: 'bk-old',
      name: 'old nightly',
      kind: 'FULL',
      treeName: 'ledger',
      keyPrefix: '',
      baseBackupId: null,
      setId: null,
      physicalTreeId: 'pt-old',
      createdAt: eightDaysAgo,
      completedAt: eightDaysAgo,
      toSequence: 1,
      manifestJson: '{}',
    });
    const firing = await waitFor('StoreScopeNotProven to fire', async () => {
      const alerts = await prometheusAlerts(url, 'StoreScopeNotProven');
      return alerts.find((alert) => alert.state === 'firing');
    });
    expect(firing.labels).toEqual({
      alertname: 'StoreScopeNotProven',
      severity: 'warning',
      tenant: 'default',
      scope: 'ledger',
    });
    expect(firing.annotations.summary).toMatch(
      /^Scope ledger \(tenant default\) not proven restorable for 8d /,
    );
  });
});
