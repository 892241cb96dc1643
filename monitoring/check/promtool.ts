// Runs Debian's promtool (package `prometheus`, installed by scripts/ensure-system-packages.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL = 'apt-get update && apt-get install -y prometheus';

export interface PromtoolResult {
  status: number | null;
  /** stdout and stderr together: promtool splits its verdict between them. */
  output: string;
}

export function promtool(...args: string[]): PromtoolResult {
  const result = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' });
  if (result.error) {
    // Not skipped: a silent skip would ship untested alert rules.
    throw new Error(
      `promtool is not installed, so the alert rules cannot be checked. Install it with: ${INSTALL}`,
    );
  }
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The release promtool reports, e.g. "2.42.0" (Debian's "+ds" suffix dropped). */
export function promtoolVersion(): string {
  const { output } = promtool('--version');
  const version = /version (\d+\.\d+\.\d+)/.exec(output)?.[1];
  if (!version) throw new Error(`cannot read promtool's version from: ${output}`);
  return version;
}
