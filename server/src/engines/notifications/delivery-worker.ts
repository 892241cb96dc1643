import { randomUUID } from 'node:crypto';
import type { Storage } from '../../storage/database.js';
import {
  countChannelFailure,
  getChannelRow,
  resetChannelFailures,
  type ChannelRow,
} from '../../storage/notifications/channel-store.js';
import {
  claimDelivery,
  findDueDeliveries,
  getDeliveryView,
  recordAttempt,
  type AttemptOutcome,
  type DeliveryView,
} from '../../storage/notifications/outbox-store.js';
import { sendEmail } from './email-sender.js';
import { backoffMs, type NotificationSettings } from './notification-settings.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';

interface WorkerLogger {
  warn(obj: object, msg?: string): void;
}

const LEASE_MS = 120_000;
const BATCH = 20;

/** The Standard Webhooks body: a dotted type, when, and the event's data. */
export function webhookBody(d: DeliveryView, tenant: string): string {
  return JSON.stringify({
    type: `store.${d.kind.toLowerCase().replaceAll('_', '.')}`,
    timestamp: new Date(d.createdAt).toISOString(),
    data: {
      eventId: d.eventId,
      tenant,
      event: d.kind,
      summary: d.summary,
      scope: d.scope,
      operationId: d.operationId,
      details: JSON.parse(d.payloadJson) as unknown,
    },
  });
}

/**
 * Sends due deliveries from the outbox, on every replica: each one is claimed under a lease with
 * a compare-and-set, so two replicas never send the same one; an attempt's outcome is written
 * only while the claim holds. A failure is retried with exponential backoff until `retryForMs`
 * after the event, then FAILED; a channel failing `pauseAfter` times in a row is paused.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly settings: NotificationSettings,
    private readonly owner: string,
    private readonly clock: () => number,
    private readonly logger: WorkerLogger,
  ) {}

  start(): void {
    if (!this.settings.deliver) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Looks at the outbox now (an event was just written); a look in progress looks again. */
  wake(): void {
    if (!this.settings.deliver || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.tick();
        } catch (error) {
          this.logger.warn(
            { err: error },
            'sending notifications failed; retried at the next poll',
          );
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** One pass: claims and sends every delivery due now (tests drive it with their clock). */
  async tick(): Promise<number> {
    let sent = 0;
    for (;;) {
      const due = await findDueDeliveries(this.storage, this.clock(), BATCH);
      if (due.length === 0) return sent;
      for (const candidate of due) {
        if (this.stopped) return sent;
        if (await this.attempt(candidate)) sent += 1;
      }
      if (due.length < BATCH) return sent;
    }
  }

  /** Claims and sends one delivery; false when another replica holds it. */
  async attempt(candidate: { id: string; attempts: number }): Promise<boolean> {
    const now = this.clock();
    if (!(await claimDelivery(this.storage, candidate, this.owner, now, LEASE_MS))) return false;
    const delivery = await getDeliveryView(this.storage, candidate.id);
    if (!delivery) return false;
    const channel = await getChannelRow(this.storage, delivery.tenant, delivery.channelId);
    if (!channel) return false;
    const result = await this.send(channel, delivery);
    await this.record(channel, delivery, candidate.attempts + 1, result);
    return true;
  }

  private async send(channel: ChannelRow, d: DeliveryView): Promise<SendResult> {
    const target = JSON.parse(channel.target_json) as { url?: string; recipients?: string[] };
    try {
      if (channel.kind === 'webhook') {
        return await sendWebhook(
          target.url ?? '',
          channel.secret,
          {
            eventId: d.eventId,
            // The wall clock, not the scheduling one: receivers judge replays against real time.
            timestamp: new Date(),
            body: webhookBody(d, channel.tenant),
          },
          { allowPrivate: this.settings.allowPrivateTargets, timeoutMs: this.settings.timeoutMs },
        );
      }
      if (!this.settings.smtp) {
        return { ok: false, responseCode: 0, error: 'SMTP is not configured on this server' };
      }
      return await sendEmail(
        this.settings.smtp,
        target.recipients ?? [],
        {
          eventId: d.eventId,
          subject: `[Store] ${d.summary}`,
          text:
            `${d.summary}\n\nTenant: ${channel.tenant}\nEvent: ${d.kind}\n` +
            (d.scope ? `Scope: ${d.scope}\n` : '') +
            (d.operationId ? `Operation: ${d.operationId}\n` : '') +
            `Event id: ${d.eventId}\nAt: ${new Date(d.createdAt).toISOString()}\n`,
        },
        this.settings.timeoutMs,
      );
    } catch (error) {
      return { ok: false, responseCode: 0, error: (error as Error).message };
    }
  }

  private async record(
    channel: ChannelRow,
    d: DeliveryView,
    attempts: number,
    result: SendResult,
  ): Promise<void> {
    const now = this.clock();
    const test = d.kind === 'TEST';
    let outcome: AttemptOutcome;
    if (result.ok) {
      outcome = {
        state: 'DELIVERED',
        responseCode: result.responseCode,
        error: '',
        nextAttemptAt: null,
      };
    } else {
      const next = now + backoffMs(this.settings, attempts);
      // A test is answered with its one attempt; a refused address never becomes allowed.
      const giveUp =
        test || result.permanent === true || next > d.createdAt + this.settings.retryForMs;
      outcome = {
        state: giveUp ? 'FAILED' : 'RETRYING',
        responseCode: result.responseCode,
        error: result.error.slice(0, 500),
        nextAttemptAt: giveUp ? null : next,
      };
    }
    const held = await recordAttempt(this.storage, d.id, this.owner, outcome, now);
    if (!held || test) return;
    if (result.ok) {
      await resetChannelFailures(this.storage, channel.tenant, channel.id);
    } else {
      await countChannelFailure(
        this.storage,
        channel.tenant,
        channel.id,
        this.settings.pauseAfter,
        `paused after ${this.settings.pauseAfter} failed deliveries in a row; the last: ${outcome.error}`,
        now,
        randomUUID().replaceAll('-', '').slice(0, 16),
      );
    }
  }
}
