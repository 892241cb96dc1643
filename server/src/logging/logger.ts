import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/**
 * Header and field names whose values never reach a log: credentials in any casing. Failed
 * sign-ins are logged with their reason, never with the token.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'token',
  'credential',
  'secret',
  '*.token',
  '*.credential',
  '*.secret',
  '*.authorization',
];

/** A JSON logger (pino) with credentials redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'store-server' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
