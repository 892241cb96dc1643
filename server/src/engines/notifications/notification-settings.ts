import type { SmtpSettings } from './email-sender.js';

/** The server-wide notification settings (README, configuration). */
export interface NotificationSettings {
  /** STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: webhooks may reach loopback/private addresses. */
  allowPrivateTargets: boolean;
  /** STORE_NOTIFY_PAUSE_AFTER: failed deliveries in a row that pause a channel. */
  pauseAfter: number;
  /** STORE_SMTP_URL and STORE_SMTP_FROM; undefined: email channels cannot be made. */
  smtp: SmtpSettings | undefined;
  /** STORE_NOTIFY_TIMEOUT_MS: one attempt's limit (connect, answer). */
  timeoutMs: number;
  /** STORE_NOTIFY_DELIVERY: false holds every delivery in the outbox (this replica sends none). */
  deliver: boolean;
  /** How often the outbox and the conditions are looked at. */
  pollMs: number;
  /** How long a delivery is retried before it is FAILED. */
  retryForMs: number;
  /** The first retry's delay; each next one doubles, up to maxBackoffMs. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** A running operation without progress for longer is stuck (as the metrics count it). */
  stuckAfterMs: number;
  /** STORE_DRILL_PROOF_MAX_AGE_DAYS in ms: a tree with backups unproven for longer is alerted. */
  proofMaxAgeMs?: number | undefined;
}

export const DEFAULT_NOTIFICATION_TIMING = {
  retryForMs: 86_400_000,
  firstBackoffMs: 30_000,
  maxBackoffMs: 3_600_000,
} as const;

/** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function backoffMs(settings: NotificationSettings, attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(settings.firstBackoffMs * 2 ** exponent, settings.maxBackoffMs);
}
