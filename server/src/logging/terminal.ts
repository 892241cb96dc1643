import { PinoPretty } from 'pino-pretty';
import type { DestinationStream } from 'pino';

/**
 * Where the shipped server logs: readable lines (time, level, message, fields) when stdout is a
 * terminal, so `npm start` reads like a program and not like a log shipper's input; JSON lines
 * (pino's default, one object per line) when it is a pipe or a file, for collectors. Credentials
 * are redacted before either (logger.ts).
 */
export function logDestination(
  stdout: NodeJS.WriteStream = process.stdout,
): DestinationStream | undefined {
  if (!stdout.isTTY) return undefined;
  return PinoPretty({
    destination: stdout,
    // Synchronous, so the last line before process.exit (a failure, "stopped") is not lost.
    sync: true,
    colorize: stdout.hasColors?.() ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: true,
  });
}
