import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, StoreOperationState, TreeDataService } from '@store/contract';
import {
  DeliveryState,
  NotificationEvent,
  NotificationService,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { afterAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import {
  DIALECTS,
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { WebhookReceiver, freePort } from './webhook-receiver.js';

const TOKEN = 'notify-crash-test-admin-token-0123456789';

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function clients(grpcUrl: string) {
  const transport = createGrpcTransport({
    baseUrl: grpcUrl,
    interceptors: [bearerInterceptor(TOKEN)],
  });
  return {
    backup: createClient(BackupControlService, transport),
    data: createClient(TreeDataService, transport),
    notify: createClient(NotificationService, transport),
  };
}

describe.each(DIALECTS)('notification crash safety on %s', (dialect) => {
  const location: TestStorageLocation = newStorageLocation(dialect);
  const artifactDir = join(location.dataDir, 'broken-artifacts');
  const receiver = new WebhookReceiver();
  const processes: ServerProcess[] = [];
  const start = async (delivery: boolean) => {
    const child = await spawnServer({
      STORE_DATA_DIR: location.dataDir,
      ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl } : {}),
      ...(location.postgresSchema ? { STORE_PG_SCHEMA: location.postgresSchema } : {}),
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_METRICS_PORT: 'off',
      STORE_LOG_LEVEL: 'warn',
      STORE_BOOTSTRAP_TOKEN: TOKEN,
      STORE_ARTIFACT_DIR: artifactDir,
      STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      STORE_NOTIFY_DELIVERY: String(delivery),
      STORE_NOTIFY_POLL_MS: '100',
    });
    processes.push(child);
    return child;
  };
  afterAll(async () => {
    for (const p of processes) await p.stop(2000);
    await receiver.close();
    await removeStorageLocation(location);
  });

  it('a failed backup recorded, then SIGKILL before delivery: after restart the receiver gets its event exactly once', async () => {
    const port = await freePort();
    const first = await start(false);
    const c = clients(first.grpcUrl);
    const { channel, signingSecret } = await c.notify.createChannel({
      name: 'on-call',
      events: [NotificationEvent.BACKUP_FAILED],
      target: { case: 'webhook', value: { url: `http://127.0.0.1:${port}/hook` } },
    });
    receiver.secret = signingSecret;
    await c.data.putEntry({ treeId: 'ledger', key: 'k1', valueJson: '{"n":1}' });
    // A real failure: the artifact directory is a file, so the capture cannot write its artifacts.
    rmSync(artifactDir, { recursive: true, force: true });
    writeFileSync(artifactDir, 'not a directory');
    const started = await c.backup.startBackup({ name: 'nightly', scope: { treeId: 'ledger' } });
    const operationId = started.operationId;
    await until('the backup to fail', async () => {
      const { status } = await c.backup.getBackupOperationStatus({ operationId });
      return status && status.state >= StoreOperationState.SUCCEEDED ? status : undefined;
    }).then((status) => expect(status.state).toBe(StoreOperationState.FAILED));
    const [pending] = (await c.notify.listDeliveries({ channelId: channel!.channelId })).deliveries;
    expect(pending?.state).toBe(DeliveryState.PENDING);
    expect(pending?.operationId).toBe(operationId);
    expect(pending?.event).toBe(NotificationEvent.BACKUP_FAILED);

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    await receiver.listen(port);
    const second = await start(true);
    const after = clients(second.grpcUrl);
    await until('the delivery', async () => {
      const [d] = (await after.notify.listDeliveries({ channelId: channel!.channelId })).deliveries;
      return d?.state === DeliveryState.DELIVERED ? d : undefined;
    });
    // Several more polls of the worker: nothing is sent again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.map((r) => r.webhookId)).toEqual([pending!.eventId]);
    expect(receiver.received[0]!.verified).toBe(true);
    expect(receiver.received[0]!.body.data).toMatchObject({
      event: 'BACKUP_FAILED',
      operationId,
      scope: 'ledger',
    });
  });
});
