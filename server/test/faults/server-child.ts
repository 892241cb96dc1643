// The real server in its own process, for the fault tests: configured from its environment
// (STORE_*, DATABASE_URL) like `npm start`, it prints one JSON line with its URLs and bootstrap
// token once both listeners are up, and runs until it is killed. Logs go to stderr.
import { pino } from 'pino';
import { startStoreServer } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/logger.js';

const config = loadConfig({ env: process.env });
// Test-only pauses (not server configuration): a capture or restore of a few thousand entries
// finishes in tens of milliseconds, too fast for a test to kill it at a chosen point.
const pause = (name: string) => {
  const ms = Number(process.env[name] ?? 0);
  return ms > 0 ? () => new Promise<void>((resolve) => setTimeout(resolve, ms)) : undefined;
};
const afterCapturePage = pause('TEST_CAPTURE_PAGE_PAUSE_MS');
const afterRestoreBatch = pause('TEST_RESTORE_BATCH_PAUSE_MS');
const server = await startStoreServer(config, createLogger(config.logLevel, pino.destination(2)), {
  ...(afterCapturePage && { afterCapturePage }),
  ...(afterRestoreBatch && { afterRestoreBatch }),
});
process.stdout.write(
  `${JSON.stringify({
    ready: true,
    httpUrl: server.httpUrl,
    grpcUrl: server.grpcUrl,
    bootstrapToken: server.bootstrapToken ?? config.bootstrapToken ?? '',
  })}\n`,
);
process.once('SIGTERM', () => {
  void server.stop().then(() => process.exit(0));
});
