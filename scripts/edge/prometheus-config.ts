import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
export const PROMETHEUS_YML = join(ROOT, 'monitoring', 'prometheus.yml');

/** What Prometheus scrapes on this machine. */
export interface EdgeScrapeTargets {
  /** Each replica's STORE_METRICS_PORT. */
  replicaMetricsPorts: number[];
  /** Envoy's admin API port (it serves /stats/prometheus). */
  envoyAdminPort: number;
  /** Loopback by default. */
  host?: string;
}

type Json = Record<string, unknown>;
interface ScrapeConfig {
  job_name: string;
  static_configs: { targets: string[] }[];
}

/**
 * monitoring/prometheus.yml with only the targets replaced by this machine's loopback ports and
 * the rule files made absolute (the config is written elsewhere). Everything else (intervals, job
 * names, metrics paths, the rules themselves) is the shipped file; monitoring/check proves that
 * nothing else differs.
 */
export function edgePrometheusConfig(
  targets: EdgeScrapeTargets,
  yamlText = readFileSync(PROMETHEUS_YML, 'utf8'),
): Json {
  const host = targets.host ?? '127.0.0.1';
  const config = parse(yamlText) as Json;
  const ruleFiles = (config.rule_files ?? []) as string[];
  config.rule_files = ruleFiles.map((file) => join(ROOT, 'monitoring', file));
  for (const scrape of config.scrape_configs as ScrapeConfig[]) {
    const ports =
      scrape.job_name === 'store'
        ? targets.replicaMetricsPorts
        : scrape.job_name === 'envoy'
          ? [targets.envoyAdminPort]
          : undefined;
    if (!ports) throw new Error(`scrape job ${scrape.job_name}: no local target for it`);
    scrape.static_configs = [{ targets: ports.map((port) => `${host}:${port}`) }];
  }
  return config;
}

/** Writes the edge config as JSON (a subset of YAML, which Prometheus reads); returns its path. */
export function writeEdgePrometheusConfig(dir: string, targets: EdgeScrapeTargets): string {
  const path = join(dir, 'prometheus.yml');
  writeFileSync(path, `${JSON.stringify(edgePrometheusConfig(targets), null, 2)}\n`);
  return path;
}
