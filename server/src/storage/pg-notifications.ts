import pg from 'pg';

/** Where a PostgreSQL storage lives, for the connections that are not in its pool. */
export interface PostgresLocation {
  connectionString: string;
  /** The schema the storage uses; notification channels are per database, so they carry it. */
  schema?: string | undefined;
}

export interface NotificationHandlers {
  /** A NOTIFY on the channel, with its payload. */
  notify(payload: string): void;
  /**
   * Whether notifications are being received. It turns false when the listening connection is
   * lost (anything may have changed unseen) and true again once it listens anew.
   */
  state(live: boolean): void;
}

export interface NotificationListener {
  close(): Promise<void>;
}

/** The channel name for `topic` in this storage's schema (NOTIFY channels are database-wide). */
export function channelOf(location: PostgresLocation, topic: string): string {
  return `${location.schema ?? 'public'}__${topic}`;
}

/**
 * LISTENs on one channel over its own connection (a pooled connection cannot hold a LISTEN),
 * and reconnects after `retryMs` when that connection is lost, until closed.
 */
export function listenForNotifications(
  location: PostgresLocation,
  topic: string,
  handlers: NotificationHandlers,
  retryMs = 1_000,
): NotificationListener {
  const channel = channelOf(location, topic);
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (from: pg.Client) => {
    if (client !== from) return;
    client = undefined;
    handlers.state(false);
    from.end().catch(() => undefined);
    if (!closed) {
      retry = setTimeout(connect, retryMs);
      retry.unref();
    }
  };

  const connect = () => {
    if (closed) return;
    const next = new pg.Client({
      connectionString: location.connectionString,
      application_name: 'store-listen',
      keepAlive: true,
    });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? '');
    });
    next
      .connect()
      .then(() => next.query(`listen "${channel}"`))
      .then(() => {
        if (client === next && !closed) handlers.state(true);
      })
      .catch(() => lost(next));
  };

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      if (last) {
        handlers.state(false);
        await last.end().catch(() => undefined);
      }
    },
  };
}
