// A process whose server never finishes stopping while a timer holds its event loop: what the
// hard-exit timer of the shutdown (src/shutdown.ts) is for. Prints "ready" once it handles signals.
import { createLogger } from '../../src/logging/logger.js';
import { logDestination } from '../../src/logging/terminal.js';
import { exitOnShutdown } from '../../src/shutdown.js';

const logs = logDestination();
const logger = createLogger('info', logs.stream);
setInterval(() => undefined, 60_000);
exitOnShutdown({
  server: { stop: () => new Promise<void>(() => undefined) },
  logger,
  logs,
  graceMs: 200,
  marginMs: 300,
});
process.stdout.write('ready\n');
