import { StoreNotificationsApiOperation as Op } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const none = (): null => null;
const channelId = (request: unknown) => {
  const value = (request as Record<string, unknown> | undefined)?.channelId;
  return typeof value === 'string' && value !== '' ? value : null;
};

/** NotificationService: a channel call's target is its channel. */
const METHODS: Record<string, MethodAccess> = {
  ListChannels: { operation: Op.LIST_CHANNELS, targetId: none },
  GetChannel: { operation: Op.GET_CHANNEL, targetId: channelId },
  CreateChannel: {
    operation: Op.CREATE_CHANNEL,
    targetId: none,
    changesState: true,
  },
  UpdateChannel: {
    operation: Op.UPDATE_CHANNEL,
    targetId: channelId,
    changesState: true,
  },
  DeleteChannel: {
    operation: Op.DELETE_CHANNEL,
    targetId: channelId,
    changesState: true,
  },
  RotateChannelSecret: {
    operation: Op.ROTATE_CHANNEL_SECRET,
    targetId: channelId,
    changesState: true,
  },
  ResumeChannel: {
    operation: Op.RESUME_CHANNEL,
    targetId: channelId,
    changesState: true,
  },
  SendTestNotification: {
    operation: Op.SEND_TEST_NOTIFICATION,
    targetId: channelId,
    changesState: true,
  },
  ListDeliveries: {
    operation: Op.LIST_DELIVERIES,
    targetId: channelId,
  },
  ListActiveAlerts: {
    operation: Op.LIST_ACTIVE_ALERTS,
    targetId: none,
  },
};

/** The package holds only this service: its family prefix is the package's. */
export const NOTIFICATIONS_SERVICE: GuardedService = {
  prefix: 'store.notifications.',
  methods: METHODS,
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles: viewers read channels (never a secret), the delivery log and the alerts that
 * would fire, as they read operations; admins change where the tenant's news goes, rotate
 * secrets and send tests (a test posts to a URL of the admin's choosing), as they change
 * retention rules.
 */
export const NOTIFICATIONS_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.LIST_CHANNELS, 'viewer'],
  [Op.GET_CHANNEL, 'viewer'],
  [Op.LIST_DELIVERIES, 'viewer'],
  [Op.LIST_ACTIVE_ALERTS, 'viewer'],
  [Op.CREATE_CHANNEL, 'admin'],
  [Op.UPDATE_CHANNEL, 'admin'],
  [Op.DELETE_CHANNEL, 'admin'],
  [Op.ROTATE_CHANNEL_SECRET, 'admin'],
  [Op.RESUME_CHANNEL, 'admin'],
  [Op.SEND_TEST_NOTIFICATION, 'admin'],
]);
