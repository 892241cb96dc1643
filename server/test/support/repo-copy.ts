import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this test runs from. */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A copy of the repository as a fresh clone would have it; remove() deletes it. */
export interface RepoCopy {
  dir: string;
  remove(): void;
}

/**
 * Copies every file git would ship (tracked, plus new files not ignored: what the next commit
 * holds), so no build output, data directory or cache comes along. Dependencies are not
 * reinstalled: `node_modules` is a folder of links to this checkout's packages, except the
 * workspace links (`@store/*`), which point into the copy as `npm ci` would make them.
 */
export function copyRepository(prefix = 'store-repo-'): RepoCopy {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
    { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    try {
      copyFileSync(join(REPO_ROOT, file), target);
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the next commit either.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  linkDependencies(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Gives `dir` (a copy or an archive of this repository) this checkout's installed packages. */
export function linkDependencies(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@store'), { recursive: true });
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (entry === '@store') continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(modules, entry));
  }
  for (const [name, folder] of [
    ['contract', 'proto'],
    ['server', 'server'],
    ['web', 'web'],
  ] as const) {
    symlinkSync(join('..', '..', folder), join(modules, '@store', name));
  }
  for (const workspace of ['server', 'web', 'proto']) {
    const own = join(REPO_ROOT, workspace, 'node_modules');
    try {
      readdirSync(own);
    } catch {
      continue;
    }
    symlinkSync(own, join(dir, workspace, 'node_modules'));
  }
}
