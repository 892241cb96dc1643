import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import {
  ChannelKind,
  ChannelState,
  DeliveryState,
  NotificationEvent,
  NotificationService,
  type ActiveAlertSchema,
  type EmailTarget,
  type NotificationChannelSchema,
  type NotificationDeliverySchema,
  type WebhookTarget,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { invalidArgument } from '../../engines/errors.js';
import type { Channel, ChannelInput } from '../../engines/notifications/notification-channels.js';
import type {
  ActiveAlert,
  DeliveryView,
  Notifications,
} from '../../engines/notifications/notifications.js';
import { auditFactsKey } from '../audit-interceptor.js';
import { callScopeOf } from '../call-scope.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { NOTIFICATIONS_SERVICE } from './notifications-access.js';

const optionalTime = (ms: number | null) => (ms === null ? undefined : timestampFromMs(ms));

function toWireChannel(c: Channel): MessageInitShape<typeof NotificationChannelSchema> {
  return {
    channelId: c.id,
    name: c.name,
    kind: c.kind === 'webhook' ? ChannelKind.WEBHOOK : ChannelKind.EMAIL,
    events: c.events.map((e) => NotificationEvent[e]),
    target:
      c.kind === 'webhook'
        ? { case: 'webhook', value: { url: c.url } }
        : { case: 'email', value: { recipients: c.recipients } },
    deadLetterThreshold: c.deadLetterThreshold,
    state: c.state === 'PAUSED' ? ChannelState.PAUSED : ChannelState.ACTIVE,
    pausedReason: c.pausedReason,
    pausedAt: optionalTime(c.pausedAt),
    consecutiveFailures: c.consecutiveFailures,
    secretHint: c.secretHint,
    createdAt: timestampFromMs(c.createdAt),
    updatedAt: timestampFromMs(c.updatedAt),
    updatedBy: c.updatedBy,
    etag: c.etag,
    deliveryCount: BigInt(c.deliveryCount),
  };
}

function toWireDelivery(d: DeliveryView): MessageInitShape<typeof NotificationDeliverySchema> {
  return {
    deliveryId: d.id,
    channelId: d.channelId,
    eventId: d.eventId,
    event:
      NotificationEvent[d.kind as keyof typeof NotificationEvent] ?? NotificationEvent.UNSPECIFIED,
    state: DeliveryState[d.state as keyof typeof DeliveryState] ?? DeliveryState.UNSPECIFIED,
    attempts: d.attempts,
    createdAt: timestampFromMs(d.createdAt),
    lastAttemptAt: optionalTime(d.lastAttemptAt),
    nextAttemptAt: optionalTime(d.nextAttemptAt),
    deliveredAt: optionalTime(d.deliveredAt),
    lastResponseCode: d.lastResponseCode,
    lastError: d.lastError,
    summary: d.summary,
    scope: d.scope,
    operationId: d.operationId,
  };
}

function toWireAlert(a: ActiveAlert): MessageInitShape<typeof ActiveAlertSchema> {
  return {
    alertName: a.alertName,
    severity: a.severity,
    summary: a.summary,
    description: a.description,
    scope: a.scope,
    operationId: a.operationId,
    since: timestampFromMs(a.since),
  };
}

interface WireChannelFields {
  name: string;
  events: NotificationEvent[];
  target:
    | { case: 'webhook'; value: WebhookTarget }
    | { case: 'email'; value: EmailTarget }
    | { case: undefined; value?: undefined };
  deadLetterThreshold: number;
}

function fromWire(request: WireChannelFields): ChannelInput {
  const events = request.events.map((e) => {
    const name = NotificationEvent[e] as string | undefined;
    if (!name || e === NotificationEvent.UNSPECIFIED || e === NotificationEvent.TEST) {
      throw invalidArgument('events', `${name ?? e} cannot be chosen`);
    }
    return name;
  });
  return {
    name: request.name,
    events,
    webhook: request.target.case === 'webhook' ? { url: request.target.value.url } : undefined,
    email:
      request.target.case === 'email' ? { recipients: request.target.value.recipients } : undefined,
    deadLetterThreshold: request.deadLetterThreshold,
  };
}

/** Says in the call's audit record what it did beyond its name (never a secret). */
function auditDetail(context: HandlerContext, detail: string): void {
  const facts = context.values.get(auditFactsKey);
  if (facts) facts.detail = detail;
}

function describe(c: Channel): string {
  const target = c.kind === 'webhook' ? c.url : c.recipients.join(', ');
  return `${c.kind} channel "${c.name}" → ${target}; events ${c.events.join(', ')}`;
}

/** NotificationService: channels, their delivery log, test sends, and the active alerts. */
export function registerNotificationService(
  router: ConnectRouter,
  notifications: Notifications | undefined,
): void {
  if (!notifications) {
    router.service(NotificationService, {});
    return;
  }
  const { channels } = notifications;
  router.service(NotificationService, {
    async listChannels(_request, context) {
      const { tenant } = callScopeOf(context);
      return { channels: (await channels.list(tenant)).map(toWireChannel) };
    },
    async getChannel(request, context) {
      const { tenant } = callScopeOf(context);
      return toWireChannel(await channels.get(tenant, request.channelId));
    },
    async createChannel(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const made = await channels.create(tenant, fromWire(request), caller.subject);
      auditDetail(context, `created ${describe(made.channel)}`);
      return { channel: toWireChannel(made.channel), signingSecret: made.secret };
    },
    async updateChannel(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const saved = await channels.update(
        tenant,
        request.channelId,
        request.etag,
        fromWire(request),
        caller.subject,
      );
      auditDetail(context, `now ${describe(saved)}`);
      return toWireChannel(saved);
    },
    async deleteChannel(request, context) {
      const { tenant } = callScopeOf(context);
      const deleted = await channels.delete(tenant, request.channelId, request.etag);
      auditDetail(context, `deleted with ${deleted} logged deliveries`);
      return { deletedDeliveries: BigInt(deleted) };
    },
    async rotateChannelSecret(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const rotated = await channels.rotate(tenant, request.channelId, caller.subject);
      auditDetail(context, `new signing secret ${rotated.channel.secretHint}`);
      return { channel: toWireChannel(rotated.channel), signingSecret: rotated.secret };
    },
    async resumeChannel(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const resumed = await channels.resume(tenant, request.channelId, caller.subject);
      auditDetail(context, 'resumed');
      return toWireChannel(resumed);
    },
    async sendTestNotification(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const delivery = await notifications.sendTest(tenant, request.channelId, caller.subject);
      auditDetail(
        context,
        `test ${delivery.state.toLowerCase()}` +
          (delivery.lastResponseCode ? ` (${delivery.lastResponseCode})` : '') +
          (delivery.lastError ? `: ${delivery.lastError}` : ''),
      );
      return toWireDelivery(delivery);
    },
    async listDeliveries(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await notifications.listDeliveries(
        tenant,
        request.channelId,
        request.pageSize,
        request.pageToken,
      );
      return {
        deliveries: page.deliveries.map(toWireDelivery),
        nextPageToken: page.nextPageToken,
      };
    },
    async listActiveAlerts(_request, context) {
      const { tenant } = callScopeOf(context);
      const alerts = await notifications.activeAlerts(tenant);
      return {
        alerts: alerts.map(toWireAlert),
        evaluatedAt: timestampFromMs(notifications.now()),
      };
    },
  });
}

/** Adds NotificationService with the same interceptor, authorizer and access gate. */
export function addNotificationsApi(
  host: StoreApiHost,
  notifications: Notifications | undefined,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    NOTIFICATIONS_SERVICE,
    (router) => registerNotificationService(router, notifications),
    configure,
  );
}
