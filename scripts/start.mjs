// `npm start`: builds what is missing or stale (the SPA with Vite, the server with esbuild), then
// runs the server with the embedded defaults (SQLite under ./data). Arguments after `--` go to
// the server (`npm start -- --http-port 9090`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../server/node-flags.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const root = new URL('..', import.meta.url).pathname;

buildIfStale();

// The server gets a process group of its own, so each stop request reaches it exactly once,
// through this script. Ctrl-C in a terminal signals the whole foreground group, and npm forwards
// that same signal to this script again: the server would see two SIGINTs and take the second as
// "stop now, skip the graceful shutdown". Copies arriving together are one request; a signal a
// second or more later is the user insisting, and is passed on.
// A group of its own must not outlive this script, though: when a terminal or a CI job is killed
// hard (SIGKILL of this script or of its whole group), no signal reaches the server. The IPC
// channel is how the server knows: the kernel closes it when this script ends, however it ends,
// and the server then stops gracefully (server/src/shutdown.ts).
const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, join(root, 'server/dist/main.js'), ...process.argv.slice(2)],
  { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true },
);
let lastForwarded = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (Date.now() - lastForwarded < 1000) return;
    lastForwarded = Date.now();
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
