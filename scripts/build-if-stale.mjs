// Builds what is missing or stale: the SPA with Vite (web/dist), the server with esbuild
// (server/dist). Used by `npm start` and `npm run edge`; run directly, it only builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

// The newest modification time under `path`: a file's own, or the newest file in a folder tree.
// Sources mix both (`web/index.html` is a file): reading a file as a folder ended the second
// `npm start` with ENOTDIR, once a first start had left a build to compare against.
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

function stale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((dir) => newest(join(root, dir)) > built);
}

function run(title, command, args) {
  console.log(`› ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function buildIfStale() {
  if (
    stale(join(root, 'web/dist/index.html'), [
      'web/src',
      'web/public',
      'web/index.html',
      'web/vite.config.ts',
      'proto/src',
      'proto/gen',
    ])
  ) {
    run('building the console (vite)', process.execPath, [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      'web',
      '--logLevel',
      'warn',
    ]);
  }
  const serverSources = ['server/src', 'proto/src', 'proto/gen'];
  if (
    stale(join(root, 'server/dist/main.js'), serverSources) ||
    // The validation pool's threads load it from beside main.js.
    stale(join(root, 'server/dist/validation-worker.js'), serverSources)
  ) {
    run('building the server (esbuild)', process.execPath, [
      join(root, 'server/scripts/build.mjs'),
    ]);
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) buildIfStale();
