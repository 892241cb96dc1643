// Issue 35, bullet 3 (configuration): monitoring/prometheus.yml is valid, scrapes every replica
// of docker-compose.yml on its metrics port and Envoy's admin /stats/prometheus, and `npm run
// edge` runs the same file with only the targets and the rule file's path replaced.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  edgePrometheusConfig,
  PROMETHEUS_YML,
  writeEdgePrometheusConfig,
} from '../../scripts/edge/prometheus-config.js';
import { promtool, promtoolVersion, ROOT } from './promtool.js';

type Node = Record<string, unknown>;
const obj = (x: unknown): Node => (x ?? {}) as Node;
const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  static_configs: { targets: string[] }[];
}
const shipped = parse(readFileSync(PROMETHEUS_YML, 'utf8')) as {
  rule_files: string[];
  scrape_configs: ScrapeConfig[];
};
const job = (name: string): ScrapeConfig => {
  const found = shipped.scrape_configs.find((scrape) => scrape.job_name === name);
  if (!found) throw new Error(`no scrape job ${name}`);
  return found;
};
const targets = (scrape: ScrapeConfig) => scrape.static_configs.flatMap((c) => c.targets);
const services = obj(
  obj(parse(readFileSync(`${ROOT}docker-compose.yml`, 'utf8'), { merge: true }))['services'],
);

/** Every leaf of a JSON value as `path = value`. */
function leaves(value: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [p, v] of leaves(child, `${path}/${key}`)) out.set(p, v);
    }
  } else out.set(path, value);
  return out;
}

describe('monitoring/prometheus.yml', () => {
  it('passes `promtool check config` (its rule file included)', () => {
    const result = promtool('check', 'config', 'monitoring/prometheus.yml');
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/SUCCESS: 1 rule files found/);
  });

  it('scrapes every server replica of docker-compose.yml on its STORE_METRICS_PORT', () => {
    const replicas = Object.keys(services).filter((name) => /^server-\d+$/.test(name));
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    expect(targets(job('store')).sort()).toEqual(
      replicas
        .map((name) => {
          const env = obj(obj(services[name])['environment']);
          expect(list(obj(services[name])['expose']), name).toContain(
            String(env['STORE_METRICS_PORT']),
          );
          return `${name}:${String(env['STORE_METRICS_PORT'])}`;
        })
        .sort(),
    );
  });

  it("scrapes Envoy's admin /stats/prometheus from inside Envoy's network namespace", () => {
    const admin = obj(
      obj(obj(parse(readFileSync(`${ROOT}proxy/envoy.yaml`, 'utf8')))['admin'])['address'],
    );
    const socket = obj(admin['socket_address']);
    expect(job('envoy').metrics_path).toBe('/stats/prometheus');
    expect(targets(job('envoy'))).toEqual([
      `${String(socket['address'])}:${String(socket['port_value'])}`,
    ]);
    // The admin API listens on loopback only: just a process sharing Envoy's namespace reaches it.
    expect(obj(services['prometheus'])['network_mode']).toBe('service:envoy');
  });

  it('is the compose service’s config, with the rules next to it, on the release promtool tests', () => {
    const prometheus = obj(services['prometheus']);
    expect(prometheus['image']).toBe(`prom/prometheus:v${promtoolVersion()}`);
    const volumes = list(prometheus['volumes']);
    expect(volumes).toContain('./monitoring/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    for (const file of shipped.rule_files) {
      expect(volumes).toContain(`./monitoring/${file}:/etc/prometheus/${file}:ro`);
    }
    expect(list(prometheus['command'])).toContain('--config.file=/etc/prometheus/prometheus.yml');
  });

  it('runs under `npm run edge` with only the targets and the rule file path replaced', () => {
    const edge = edgePrometheusConfig({
      replicaMetricsPorts: [29464, 29465],
      envoyAdminPort: 29901,
    });
    const before = leaves(shipped);
    const after = leaves(edge);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (path) => before.get(path) !== after.get(path),
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const path of changed) {
      expect(path).toMatch(
        /^\/(scrape_configs\/\d+\/static_configs\/0\/targets\/\d+|rule_files\/\d+)$/,
      );
    }
    expect(after.get('/rule_files/0')).toBe(join(ROOT, 'monitoring', 'store-alerts.yml'));
    const jobs = edge['scrape_configs'] as ScrapeConfig[];
    expect(jobs.map((scrape) => [scrape.job_name, targets(scrape)])).toEqual([
      ['store', ['127.0.0.1:29464', '127.0.0.1:29465']],
      ['envoy', ['127.0.0.1:29901']],
    ]);

    const dir = mkdtempSync(join(tmpdir(), 'store-prometheus-edge-'));
    try {
      const file = writeEdgePrometheusConfig(dir, {
        replicaMetricsPorts: [29464, 29465],
        envoyAdminPort: 29901,
      });
      const result = promtool('check', 'config', file);
      expect(result.status, result.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
