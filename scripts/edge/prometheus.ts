import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.js';
import { startManaged, waitUntil, type Managed } from './processes.js';
import { writeEdgePrometheusConfig, type EdgeScrapeTargets } from './prometheus-config.js';

export const PROMETHEUS_INSTALL = 'apt-get install -y prometheus';

/** `prometheus` on PATH, else Debian's /usr/bin/prometheus; undefined when neither runs. */
export function findPrometheus(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'prometheus');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * Prometheus with monitoring/prometheus.yml (targets substituted) and the shipped alert rules,
 * its web UI and API on a loopback port, its data in `workDir`; resolves once it is ready.
 */
export async function startEdgePrometheus(
  binary: string,
  workDir: string,
  logDir: string,
  targets: EdgeScrapeTargets,
): Promise<{ prometheus: Managed; url: string }> {
  return startPrometheus(binary, workDir, logDir, writeEdgePrometheusConfig(workDir, targets));
}

/**
 * Prometheus on the config file `config`, its web UI and API on a free loopback port, its data
 * in `workDir`; resolves once it is ready (the alert e2e test runs it on a config of its own).
 */
export async function startPrometheus(
  binary: string,
  workDir: string,
  logDir: string,
  config: string,
): Promise<{ prometheus: Managed; url: string }> {
  const port = await freePort();
  const dataDir = join(workDir, 'prometheus-data');
  mkdirSync(dataDir, { recursive: true });
  const prometheus = startManaged(
    'prometheus',
    [
      binary,
      `--config.file=${config}`,
      `--storage.tsdb.path=${dataDir}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    {
      cwd: workDir,
      env: { PATH: process.env.PATH },
      logFile: join(logDir, 'prometheus.log'),
      watch: 'stdin',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      'Prometheus to be ready',
      async () => (await fetch(`${url}/-/ready`)).ok,
      30_000,
      prometheus,
    );
  } catch (error) {
    await prometheus.stop();
    throw error;
  }
  return { prometheus, url };
}
