// `npm start`: builds what is missing or stale (the SPA with Vite, the server with esbuild), then
// runs the server with the embedded defaults (SQLite under ./data). Arguments after `--` go to
// the server (`npm start -- --http-port 9090`).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
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

if (
  stale(join(root, 'web/dist/index.html'), ['web/src', 'web/index.html', 'proto/src', 'proto/gen'])
) {
  run('building the console (vite)', process.execPath, [
    join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    'web',
    '--logLevel',
    'warn',
  ]);
}
if (stale(join(root, 'server/dist/main.js'), ['server/src', 'proto/src', 'proto/gen'])) {
  run('building the server (esbuild)', process.execPath, [join(root, 'server/scripts/build.mjs')]);
}

const server = spawn(
  process.execPath,
  ['--enable-source-maps', join(root, 'server/dist/main.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
