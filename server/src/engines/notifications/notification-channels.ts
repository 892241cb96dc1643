import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '../../storage/database.js';
import {
  deleteChannelRow,
  getChannelRow,
  insertChannelRow,
  listChannelRows,
  updateChannelRow,
  type ChannelRow,
  type ChannelWithCount,
} from '../../storage/notifications/channel-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../errors.js';
import { checkWebhookUrl } from './address-guard.js';
import { isMailbox } from './email-sender.js';
import { CHOOSABLE_EVENTS, type ChoosableEvent } from './notification-events.js';
import type { NotificationSettings } from './notification-settings.js';
import { newSigningSecret } from './webhook-sender.js';

export type ChannelKind = 'webhook' | 'email';

export interface Channel {
  id: string;
  name: string;
  kind: ChannelKind;
  events: ChoosableEvent[];
  url: string;
  recipients: string[];
  deadLetterThreshold: number;
  state: 'ACTIVE' | 'PAUSED';
  pausedReason: string;
  pausedAt: number | null;
  consecutiveFailures: number;
  secretHint: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
  etag: string;
  deliveryCount: number;
}

export interface ChannelInput {
  name: string;
  events: readonly string[];
  webhook?: { url: string } | undefined;
  email?: { recipients: readonly string[] } | undefined;
  deadLetterThreshold: number;
}

const MAX_CHANNELS = 50;
const MAX_RECIPIENTS = 50;
const MAX_NAME = 100;
/** The shipped rule's pile (StoreDeadLettersPiling): what a threshold left at 0 means. */
export const DEFAULT_DEAD_LETTER_THRESHOLD = 100;

export function toChannel(row: ChannelWithCount): Channel {
  const target = JSON.parse(row.target_json) as { url?: string; recipients?: string[] };
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as ChannelKind,
    events: JSON.parse(row.events_json) as ChoosableEvent[],
    url: target.url ?? '',
    recipients: target.recipients ?? [],
    deadLetterThreshold: row.dead_letter_threshold,
    state: row.state as Channel['state'],
    pausedReason: row.paused_reason,
    pausedAt: row.paused_at === null ? null : Number(row.paused_at),
    consecutiveFailures: row.consecutive_failures,
    secretHint: row.secret_hint,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
    etag: row.etag,
    deliveryCount: row.delivery_count,
  };
}

/** The secret's first characters after its prefix: enough to tell two apart, not to sign. */
function hintOf(secret: string): string {
  return secret ? `${secret.slice(0, 10)}…` : '';
}

function newEtag(): string {
  return randomUUID().replaceAll('-', '').slice(0, 16);
}

/** Channel CRUD with validation; a webhook's secret leaves only in Create's and Rotate's answer. */
export class NotificationChannels {
  constructor(
    private readonly storage: Storage,
    private readonly settings: NotificationSettings,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(tenant: string): Promise<Channel[]> {
    return (await listChannelRows(this.storage, tenant)).map(toChannel);
  }

  async get(tenant: string, id: string): Promise<Channel> {
    return toChannel(await this.row(tenant, id));
  }

  /** The stored row (with its secret), for the delivery worker. */
  async row(tenant: string, id: string): Promise<ChannelWithCount> {
    if (!id) throw invalidArgument('channel_id', 'required');
    const row = await getChannelRow(this.storage, tenant, id);
    if (!row) throw notFound(`no notification channel ${id}`);
    return row;
  }

  async create(
    tenant: string,
    input: ChannelInput,
    by: string,
  ): Promise<{ channel: Channel; secret: string }> {
    const valid = await this.validate(input);
    const existing = await listChannelRows(this.storage, tenant);
    if (existing.length >= MAX_CHANNELS) {
      throw failedPrecondition(`a tenant has at most ${MAX_CHANNELS} notification channels`);
    }
    const now = this.clock();
    const secret = valid.kind === 'webhook' ? newSigningSecret(randomBytes) : '';
    const row: ChannelRow = {
      tenant,
      id: `ch_${randomUUID()}`,
      name: valid.name,
      kind: valid.kind,
      events_json: JSON.stringify(valid.events),
      target_json: JSON.stringify(valid.target),
      dead_letter_threshold: valid.deadLetterThreshold,
      secret,
      secret_hint: hintOf(secret),
      state: 'ACTIVE',
      paused_reason: '',
      paused_at: null,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
      updated_by: by,
      etag: newEtag(),
    };
    await insertChannelRow(this.storage, row);
    return { channel: toChannel({ ...row, delivery_count: 0 }), secret };
  }

  async update(
    tenant: string,
    id: string,
    etag: string,
    input: ChannelInput,
    by: string,
  ): Promise<Channel> {
    const current = await this.row(tenant, id);
    requireEtag(current, etag);
    const valid = await this.validate(input);
    if (valid.kind !== current.kind) {
      throw invalidArgument('target', `a ${current.kind} channel stays one: create another`);
    }
    await this.write(tenant, id, etag, {
      name: valid.name,
      events_json: JSON.stringify(valid.events),
      target_json: JSON.stringify(valid.target),
      dead_letter_threshold: valid.deadLetterThreshold,
      updated_by: by,
    });
    return this.get(tenant, id);
  }

  async delete(tenant: string, id: string, etag: string): Promise<number> {
    const current = await this.row(tenant, id);
    requireEtag(current, etag);
    const deleted = await deleteChannelRow(this.storage, tenant, id, etag);
    if (deleted === undefined) throw staleEtag();
    return deleted;
  }

  async rotate(
    tenant: string,
    id: string,
    by: string,
  ): Promise<{ channel: Channel; secret: string }> {
    const current = await this.row(tenant, id);
    if (current.kind !== 'webhook') {
      throw failedPrecondition('only a webhook channel has a signing secret');
    }
    const secret = newSigningSecret(randomBytes);
    await this.write(tenant, id, current.etag, {
      secret,
      secret_hint: hintOf(secret),
      updated_by: by,
    });
    return { channel: await this.get(tenant, id), secret };
  }

  async resume(tenant: string, id: string, by: string): Promise<Channel> {
    const current = await this.row(tenant, id);
    await this.write(tenant, id, current.etag, {
      state: 'ACTIVE',
      paused_reason: '',
      paused_at: null,
      consecutive_failures: 0,
      updated_by: by,
    });
    return this.get(tenant, id);
  }

  private async write(tenant: string, id: string, etag: string, changes: Partial<ChannelRow>) {
    const ok = await updateChannelRow(this.storage, tenant, id, etag, {
      ...changes,
      updated_at: this.clock(),
      etag: newEtag(),
    });
    if (!ok) throw staleEtag();
  }

  private async validate(input: ChannelInput) {
    const name = input.name.trim();
    if (!name) throw invalidArgument('name', 'required');
    if (name.length > MAX_NAME) throw invalidArgument('name', `at most ${MAX_NAME} characters`);
    if (input.events.length === 0) throw invalidArgument('events', 'choose at least one event');
    const events: ChoosableEvent[] = [];
    for (const event of input.events) {
      if (!(CHOOSABLE_EVENTS as readonly string[]).includes(event)) {
        throw invalidArgument('events', `${event} cannot be chosen`);
      }
      if (!events.includes(event as ChoosableEvent)) events.push(event as ChoosableEvent);
    }
    const deadLetterThreshold = input.deadLetterThreshold || DEFAULT_DEAD_LETTER_THRESHOLD;
    if (input.webhook && input.email) throw invalidArgument('target', 'a webhook or an email');
    if (input.webhook) {
      const url = await checkWebhookUrl(
        input.webhook.url.trim(),
        this.settings.allowPrivateTargets,
      );
      return {
        name,
        events,
        deadLetterThreshold,
        kind: 'webhook' as const,
        target: { url: url.href },
      };
    }
    if (input.email) {
      if (!this.settings.smtp) {
        throw failedPrecondition(
          'email channels need the server-wide SMTP settings (STORE_SMTP_URL, STORE_SMTP_FROM)',
        );
      }
      const recipients = [...new Set(input.email.recipients.map((r) => r.trim()))];
      if (recipients.length === 0) throw invalidArgument('email.recipients', 'at least one');
      if (recipients.length > MAX_RECIPIENTS) {
        throw invalidArgument('email.recipients', `at most ${MAX_RECIPIENTS}`);
      }
      for (const r of recipients) {
        if (!isMailbox(r))
          throw invalidArgument('email.recipients', `${JSON.stringify(r)} is not an address`);
      }
      return { name, events, deadLetterThreshold, kind: 'email' as const, target: { recipients } };
    }
    throw invalidArgument('target', 'a webhook URL or email recipients are required');
  }
}

function staleEtag() {
  return failedPrecondition('the channel was changed since it was read: read it again');
}

function requireEtag(row: ChannelRow, etag: string): void {
  if (row.etag !== etag) throw staleEtag();
}
