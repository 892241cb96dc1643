import { helpText, loadConfig } from './config/load-config.js';
import { ConfigError } from './config/settings.js';
import { createLogger } from './logging/logger.js';
import { bootstrapTokenLines } from './logging/bootstrap-token-output.js';
import { logDestination } from './logging/terminal.js';
import { startStoreServer } from './app.js';
import { exitOnShutdown } from './shutdown.js';

/** Entry point: configuration, start, the sign-in hint, and the shutdown (shutdown.ts). */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText());
    return;
  }
  let config;
  try {
    config = loadConfig({ argv, env: process.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`store-server: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const logs = logDestination();
  const logger = createLogger(config.logLevel, logs.stream);
  let server;
  try {
    server = await startStoreServer(config, logger);
  } catch (error) {
    // A setting only the start can check (an s3:// bucket it cannot reach): as a bad value.
    if (error instanceof ConfigError) {
      console.error(`store-server: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  logger.info(
    {
      http: server.httpUrl,
      grpc: server.grpcUrl,
      metrics: server.metricsUrl,
      dataDir: config.dataDir,
    },
    'store server listening',
  );
  console.log(`\nStore admin console: ${server.httpUrl.replace('127.0.0.1', 'localhost')}`);
  console.log(`Native gRPC (h2c):   ${server.grpcUrl}`);
  if (server.bootstrapToken !== undefined) {
    // A preset token is the operator's own: never echo it.
    const shown =
      config.bootstrapToken !== undefined
        ? {
            lines: [
              `Sign in with the "API token" scheme, tenant "${config.bootstrapTenant}", using:`,
              '  (the token in STORE_BOOTSTRAP_TOKEN)',
            ],
          }
        : bootstrapTokenLines({
            token: server.bootstrapToken,
            tenant: config.bootstrapTenant,
            stdoutIsTerminal: process.stdout.isTTY === true,
            dataDir: config.dataDir,
          });
    if (shown.file !== undefined) {
      logger.info({ file: shown.file }, 'first admin token written to a file (mode 0600)');
    }
    const { lines } = shown;
    console.log(`\n${lines.join('\n')}`);
    const expiry =
      config.bootstrapTokenTtlMs === null
        ? 'It does not expire (STORE_BOOTSTRAP_TOKEN_TTL=never).'
        : `It expires ${new Date(Date.now() + config.bootstrapTokenTtlMs).toISOString()} (STORE_BOOTSTRAP_TOKEN_TTL).`;
    console.log(`${expiry}\nMore tokens: npm run token -- create --tenant <t> --role <r>`);
  } else {
    console.log('\nSign in with an API token (npm run token -- create --tenant <t> --role admin).');
  }

  exitOnShutdown({ server, logger, logs, graceMs: config.shutdownGraceMs });
}

main().catch((error: unknown) => {
  console.error('store-server failed to start:', error);
  process.exit(1);
});
