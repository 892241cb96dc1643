import type { LogOutput } from './logging/terminal.js';
import type { Logger } from './logging/logger.js';

/**
 * Time past the grace the whole stop may take before the process exits anyway: the runner's
 * abort settle (2 s) and hand-back, the audit's last records, closing storage.
 */
export const HARD_EXIT_MARGIN_MS = 5_000;
/** How long the last log lines get to leave the process before it exits. */
const LOG_FLUSH_MS = 1_000;

export interface ShutdownOptions {
  server: { stop(): Promise<void> };
  logger: Logger;
  logs: LogOutput;
  /** STORE_SHUTDOWN_GRACE_MS: what calls and operations in flight get. */
  graceMs: number;
  /** Default HARD_EXIT_MARGIN_MS (tests shorten it). */
  marginMs?: number;
}

/**
 * Stops the server gracefully on SIGTERM, SIGINT, or when the launcher that started it is gone,
 * and makes sure the process then ends. Whatever is in flight, the process exits within the grace
 * plus HARD_EXIT_MARGIN_MS: a hard-exit timer, armed when the stop begins, exits non-zero and logs
 * what still held the event loop. A second signal means "stop now".
 */
export function exitOnShutdown(options: ShutdownOptions): void {
  const { server, logger, logs, graceMs, marginMs = HARD_EXIT_MARGIN_MS } = options;
  const exit = (code: number) => void logs.flush(LOG_FLUSH_MS).then(() => process.exit(code));
  let stopping = false;
  const stop = (cause: Record<string, string>) => {
    if (stopping) return;
    stopping = true;
    const deadlineMs = graceMs + marginMs;
    // Unref'd: an idle server that stops at once exits at once.
    setTimeout(() => {
      logger.error(
        { deadlineMs, stillOpen: process.getActiveResourcesInfo() },
        'shutdown did not finish within its deadline; exiting',
      );
      exit(1);
    }, deadlineMs).unref();
    logger.info(cause, 'shutting down');
    server.stop().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      signals++;
      if (signals > 1) process.exit(1);
      stop({ signal });
    });
  }
  whenLauncherIsGone(() => stop({ launcher: 'gone' }));
}

/**
 * `npm start` (scripts/start.mjs) runs the server in a process group of its own and keeps an IPC
 * channel to it. The kernel closes that channel when the launcher ends, however it ends: SIGKILL
 * of it or of its whole group (a terminal or a CI job killed hard) included, which no signal
 * forwarding can see. Left running, the server would hold both ports and the next start could
 * not bind. A server started without a channel (directly, by a supervisor) watches nothing.
 */
function whenLauncherIsGone(onGone: () => void): void {
  if (process.send === undefined) return;
  if (!process.connected) onGone();
  else process.once('disconnect', onGone);
}
