import { randomUUID } from 'node:crypto';
import type { Storage } from '../../storage/database.js';
import { withTransaction } from '../../storage/data/tree-db.js';
import {
  deliveriesOfEvent,
  getDeliveryView,
  listDeliveryViews,
  pruneOutbox,
  writeOutboxEvent,
  type DeliveryView,
} from '../../storage/notifications/outbox-store.js';
import { invalidArgument } from '../errors.js';
import { AlertConditions, type ActiveAlert } from './alert-conditions.js';
import { DeliveryWorker } from './delivery-worker.js';
import { outboxOnOperationEnd } from './notification-events.js';
import { NotificationChannels } from './notification-channels.js';
import type { NotificationSettings } from './notification-settings.js';

export type { ActiveAlert, DeliveryView };

interface Logger {
  warn(obj: object, msg?: string): void;
}

const MAX_PAGE = 200;
/** How long settled deliveries stay in a channel's log. */
const LOG_KEPT_MS = 30 * 86_400_000;
const DEFAULT_PAGE = 50;

/**
 * Notifications (issue 35): channels, the outbox the runner writes to when an operation ends, the
 * delivery worker, and the alert conditions (active alerts, condition events).
 */
export class Notifications {
  readonly channels: NotificationChannels;
  readonly worker: DeliveryWorker;
  readonly conditions: AlertConditions;
  private conditionTimer: NodeJS.Timeout | undefined;
  private evaluating: Promise<unknown> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly settings: NotificationSettings,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    owner = randomUUID(),
  ) {
    this.channels = new NotificationChannels(storage, settings, clock);
    this.worker = new DeliveryWorker(storage, settings, owner, clock, logger);
    this.conditions = new AlertConditions(
      storage,
      settings.stuckAfterMs,
      () => this.worker.wake(),
      settings.proofMaxAgeMs,
    );
  }

  /** The runner's recordWithEnd: an ended operation's event, in the transaction that ends it. */
  get recordWithEnd() {
    return outboxOnOperationEnd(this.clock, () => this.worker.wake());
  }

  start(): void {
    this.worker.start();
    // Conditions change on a minutes scale: a look every 15 polls is plenty.
    this.conditionTimer = setInterval(() => {
      const now = this.clock();
      this.evaluating ??= this.conditions
        .evaluate(now)
        .then(() => pruneOutbox(this.storage, now - LOG_KEPT_MS))
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'evaluating alert conditions failed'),
        )
        .finally(() => (this.evaluating = undefined));
    }, this.settings.pollMs * 15);
    this.conditionTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.conditionTimer) clearInterval(this.conditionTimer);
    await this.evaluating;
    await this.worker.stop();
  }

  async listDeliveries(
    tenant: string,
    channelId: string,
    pageSize: number,
    pageToken: string,
  ): Promise<{ deliveries: DeliveryView[]; nextPageToken: string }> {
    if (channelId) await this.channels.row(tenant, channelId);
    const size = Math.min(pageSize || DEFAULT_PAGE, MAX_PAGE);
    const after = pageToken ? parseToken(pageToken) : undefined;
    const rows = await listDeliveryViews(this.storage, tenant, channelId, size + 1, after);
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      deliveries: page,
      nextPageToken:
        rows.length > size && last
          ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url')
          : '',
    };
  }

  /** Writes a TEST event for this channel only and sends it now: one attempt, its outcome. */
  async sendTest(tenant: string, channelId: string, by: string): Promise<DeliveryView> {
    const channel = await this.channels.get(tenant, channelId);
    const eventId = `evt_${randomUUID()}`;
    await withTransaction(this.storage, (tx) =>
      writeOutboxEvent(
        tx,
        {
          eventId,
          tenant,
          kind: 'TEST',
          scope: '',
          operationId: '',
          summary: `Test notification for channel ${channel.name}, sent by ${by}`,
          payload: { channelId, sentBy: by },
          createdAt: this.clock(),
        },
        [channelId],
      ),
    );
    const [created] = await deliveriesOfEvent(this.storage, eventId);
    if (!created) throw new Error('the test delivery was not written');
    await this.worker.attempt(created);
    const view = await getDeliveryView(this.storage, created.id);
    if (!view) throw new Error('the test delivery is gone');
    return view;
  }

  activeAlerts(tenant: string): Promise<ActiveAlert[]> {
    return this.conditions.active(tenant, this.clock());
  }

  now(): number {
    return this.clock();
  }
}

function parseToken(token: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [
      number,
      string,
    ];
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id };
  } catch {
    // falls through to the refusal
  }
  throw invalidArgument('page_token', 'not a token this list gave');
}
