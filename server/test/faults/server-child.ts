// The real server in its own process, for the fault tests: configured from its environment
// (STORE_*, DATABASE_URL) like `npm start`, it prints one JSON line with its URLs and bootstrap
// token once both listeners are up, and runs until it is killed. Logs go to stderr.
import { pino } from 'pino';
import { startStoreServer } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/logger.js';

const config = loadConfig({ env: process.env });
const server = await startStoreServer(config, createLogger(config.logLevel, pino.destination(2)));
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
