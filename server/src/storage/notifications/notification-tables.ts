/** The notification tables (migration 0025), merged into the database's type. */

export interface NotificationChannelsTable {
  tenant: string;
  id: string;
  name: string;
  /** 'webhook' | 'email' */
  kind: string;
  /** The chosen event names, a JSON array. */
  events_json: string;
  /** {"url": …} or {"recipients": […]} */
  target_json: string;
  dead_letter_threshold: number;
  /** Webhook signing secret ("whsec_…"); empty for email. */
  secret: string;
  secret_hint: string;
  /** 'ACTIVE' | 'PAUSED' */
  state: string;
  paused_reason: string;
  paused_at: number | null;
  consecutive_failures: number;
  created_at: number;
  updated_at: number;
  updated_by: string;
  etag: string;
}

export interface NotificationEventsTable {
  event_id: string;
  tenant: string;
  kind: string;
  scope: string;
  operation_id: string;
  summary: string;
  payload_json: string;
  created_at: number;
}

export interface NotificationDeliveriesTable {
  id: string;
  tenant: string;
  channel_id: string;
  event_id: string;
  /** 'PENDING' | 'RETRYING' | 'DELIVERED' | 'FAILED' | 'SKIPPED' */
  state: string;
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  last_response_code: number;
  last_error: string;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

export interface NotificationConditionsTable {
  tenant: string;
  condition_key: string;
  event_id: string;
  opened_at: number;
}

declare module '../database-schema.js' {
  interface Database {
    notification_channels: NotificationChannelsTable;
    notification_events: NotificationEventsTable;
    notification_deliveries: NotificationDeliveriesTable;
    notification_conditions: NotificationConditionsTable;
  }
}
