import { PinoPretty } from 'pino-pretty';
import type { DestinationStream } from 'pino';

/** Where the shipped server's log lines go, and a bounded wait for them to leave. */
export interface LogOutput {
  stream: DestinationStream;
  /** Resolves once every line written so far has left this process, or after `timeoutMs`. */
  flush(timeoutMs: number): Promise<void>;
}

/**
 * Lines waiting in this process past this many bytes are dropped: stdout's reader stopped reading
 * (a CI job gone, a pipe nobody drains), and the server must not grow without bound for it.
 */
export const MAX_PENDING_LOG_BYTES = 8 << 20;

/**
 * Where the shipped server logs: readable lines (time, level, message, fields) when stdout is a
 * terminal, so `npm start` reads like a program and not like a log shipper's input; JSON lines
 * (one object per line) when it is a pipe or a file, for collectors. Credentials are redacted
 * before either (logger.ts).
 */
export function logDestination(stdout: NodeJS.WriteStream = process.stdout): LogOutput {
  if (!stdout.isTTY) return pipeOrFile(stdout);
  return {
    stream: PinoPretty({
      destination: stdout,
      // Synchronous, so the last line before process.exit (a failure, "stopped") is not lost.
      sync: true,
      colorize: stdout.hasColors?.() ?? false,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      singleLine: true,
    }),
    flush: () => Promise.resolve(),
  };
}

/**
 * JSON lines through Node's own stdout stream, never pino's default destination: that one flushes
 * synchronously when the process exits and retries a full pipe forever, so a server whose
 * stdout nobody read any more (its `npm start` killed while the pipe stayed open) closed its
 * listeners and its database on SIGTERM and then never exited. A pipe here is written without
 * blocking; what it cannot take yet waits in memory (bounded), and process.exit drops it.
 */
function pipeOrFile(stdout: NodeJS.WriteStream): LogOutput {
  let broken = false;
  // EPIPE (the reader is gone) must not end the server: logging just stops.
  stdout.on('error', () => (broken = true));
  return {
    stream: {
      write(line: string) {
        if (broken || stdout.writableLength > MAX_PENDING_LOG_BYTES) return;
        stdout.write(line);
      },
    },
    async flush(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!broken && stdout.writableLength > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
