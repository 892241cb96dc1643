import { createClient, type Client } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupInsightService,
  BackupLifecycleService,
  durationFromMs,
  SchemaControlService,
  StoreOperationState,
  StoreSchemaMode,
  TreeDataService,
  type StoreOperationStatus,
} from '@store/contract';
import { authedGrpcWebTransport } from '../../e2e/support/authed-transport';
import { SchemaInsightService } from '../../proto/gen/store/insight/v1/schema_insight_pb';

/** Typed clients of the server being photographed, over gRPC-Web as the browser talks. */
export interface SeedApi {
  backup: Client<typeof BackupControlService>;
  insight: Client<typeof BackupInsightService>;
  lifecycle: Client<typeof BackupLifecycleService>;
  schema: Client<typeof SchemaControlService>;
  schemaInsight: Client<typeof SchemaInsightService>;
  data: Client<typeof TreeDataService>;
}

export function seedApi(baseUrl: string, token: string, tenant: string): SeedApi {
  const transport = authedGrpcWebTransport(baseUrl, token, tenant);
  return {
    backup: createClient(BackupControlService, transport),
    insight: createClient(BackupInsightService, transport),
    lifecycle: createClient(BackupLifecycleService, transport),
    schema: createClient(SchemaControlService, transport),
    schemaInsight: createClient(SchemaInsightService, transport),
    data: createClient(TreeDataService, transport),
  };
}

/** The ids the walk needs to open the detail routes with real data behind them. */
export interface Seeded {
  baselineId: string;
  incrementalId: string;
  captureOperationId: string;
  previewOperationId: string;
  runningOperationId: string;
}

async function until(
  read: () => Promise<StoreOperationStatus | undefined>,
): Promise<StoreOperationStatus> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = await read();
    if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('a seeding operation did not finish within a minute');
}

async function capture(
  api: SeedApi,
  start: () => Promise<{ operationId: string }>,
): Promise<{ backupId: string; operationId: string }> {
  const { operationId } = await start();
  const status = await until(
    async () => (await api.backup.getBackupOperationStatus({ operationId })).status,
  );
  if (status.result.case !== 'capture') throw new Error(`capture ended: ${status.error?.message}`);
  return { backupId: status.result.value.backupId, operationId };
}

const CITIES = ['Lisbon', 'Oslo', 'Kraków', 'Montréal', 'Osaka', 'Nairobi', 'Lima', 'Perth'];

async function putCustomers(api: SeedApi, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const customer = {
      name: `Customer ${i}`,
      city: CITIES[i % CITIES.length],
      tier: i % 5 === 0 ? 'gold' : 'standard',
      since: 2019 + (i % 6),
    };
    await api.data.putEntry({
      treeId: 'customers',
      key: `customer/${String(i).padStart(4, '0')}`,
      valueJson: JSON.stringify(customer),
    });
  }
}

/**
 * A tenant as it looks after some weeks of use: trees with entries, a schema policy that has
 * refused writes (dead letters), full and incremental backups, a backup set, schedules with a
 * time of day, retention rules with something to delete, a protected backup, a verified backup,
 * a restore preview, a backup diff and a policy dry-run; audit records come with all of it.
 */
export async function seedTenant(api: SeedApi): Promise<Omit<Seeded, 'runningOperationId'>> {
  await putCustomers(api, 0, 40);
  for (let i = 0; i < 24; i++) {
    await api.data.putEntry({
      treeId: 'orders',
      key: `order/2026-11-${String(1 + (i % 25)).padStart(2, '0')}/${1000 + i}`,
      valueJson: JSON.stringify({
        customer: `customer/${String(i % 40).padStart(4, '0')}`,
        total: 12.5 * (i + 1),
      }),
    });
  }
  const baseline = await capture(api, () =>
    api.backup.startBackup({ name: 'customers full baseline', scope: { treeId: 'customers' } }),
  );
  await putCustomers(api, 40, 46);
  await api.data.putEntry({
    treeId: 'customers',
    key: 'customer/0007',
    valueJson: JSON.stringify({ name: 'Customer 7', city: 'Lima', tier: 'gold', since: 2020 }),
  });
  await api.data.deleteEntry({ treeId: 'customers', key: 'customer/0003' });
  const incremental = await capture(api, () =>
    api.backup.startIncrementalBackup({
      name: 'customers after the November import',
      scope: { treeId: 'customers' },
      baseBackupId: baseline.backupId,
    }),
  );
  const set = await api.backup.startBackupSet({
    name: 'month-end customers and orders',
    scopes: [{ treeId: 'customers' }, { treeId: 'orders' }],
    crossTreeConsistent: true,
  });
  const setStatus = await until(
    async () =>
      (await api.backup.getBackupOperationStatus({ operationId: set.operationId })).status,
  );
  if (setStatus.result.case !== 'setCapture') throw new Error('the backup set was not captured');

  // Inventory: four fulls, and rules that keep two of them (the preview has work to show).
  for (let n = 1; n <= 4; n++) {
    await api.data.putEntry({
      treeId: 'inventory',
      key: `sku/${1000 + n}`,
      valueJson: JSON.stringify({ stock: 10 * n }),
    });
    await capture(api, () =>
      api.backup.startBackup({ name: `inventory full ${n}`, scope: { treeId: 'inventory' } }),
    );
  }
  await api.lifecycle.setRetentionRules({
    scope: { treeId: 'inventory' },
    rules: { keepLast: 2, keepDaily: 7, timeZone: 'Europe/Berlin' },
  });
  await api.lifecycle.protectBackup({
    backupId: baseline.backupId,
    reason: 'audit 2026-Q4: keep until the review closes',
  });

  for (const [treeId, incremental, hours] of [
    ['customers', false, 24],
    ['customers', true, 1],
    ['inventory', false, 24],
  ] as const) {
    await api.backup.scheduleBackup({
      scope: { treeId },
      incremental,
      interval: durationFromMs(hours * 3_600_000),
    });
  }
  await api.insight.configureScheduleExtras({
    scope: { treeId: 'customers' },
    anchor: { timeOfDay: '02:00', timeZone: 'Europe/Berlin' },
  });

  // Profiles: an enforced policy that has refused two writes.
  await api.data.putEntry({ treeId: 'profiles', key: 'ada', valueJson: '{"name":"Ada"}' });
  await api.schema.setPolicy({
    treeId: 'profiles',
    policy: {
      jsonSchema: JSON.stringify({
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 } },
      }),
      version: 1,
      mode: StoreSchemaMode.ENFORCE,
    },
  });
  for (const [key, value] of [
    ['grace', { name: 'Grace' }],
    ['nameless', { age: 3 }],
    ['blank', { name: '' }],
  ] as const) {
    await api.data.putEntry({ treeId: 'profiles', key, valueJson: JSON.stringify(value) });
  }

  const check = await api.backup.startBackupHealthCheck({ backupId: baseline.backupId });
  await until(
    async () =>
      (await api.backup.getBackupOperationStatus({ operationId: check.operationId })).status,
  );
  const preview = await api.insight.startRestorePreview({ backupId: baseline.backupId });
  const diff = await api.insight.startBackupDiff({
    fromBackupId: baseline.backupId,
    toBackupId: incremental.backupId,
  });
  for (const operationId of [preview.operationId, diff.operationId]) {
    await until(
      async () => (await api.insight.getBackupInsightOperationStatus({ operationId })).status,
    );
  }
  await api.schemaInsight.startPolicyDryRun({
    treeId: 'customers',
    jsonSchema: JSON.stringify({ properties: { since: { minimum: 2021 } } }),
  });
  return {
    baselineId: baseline.backupId,
    incrementalId: incremental.backupId,
    captureOperationId: baseline.operationId,
    previewOperationId: preview.operationId,
  };
}

/**
 * A capture that is still running while the pages are photographed (the tray, the operations
 * list): a tree of a few thousand entries read at a throttled rate.
 */
export async function startSlowCapture(api: SeedApi): Promise<string> {
  for (let batch = 0; batch < 6; batch++) {
    await api.data.putEntries({
      treeId: 'events',
      entries: Array.from({ length: 500 }, (_, i) => ({
        key: `event/${String(batch * 500 + i).padStart(6, '0')}`,
        valueJson: JSON.stringify({ kind: i % 3 === 0 ? 'login' : 'view', at: batch * 500 + i }),
      })),
    });
  }
  const { operationId } = await api.backup.startBackup({
    name: 'events full',
    scope: { treeId: 'events' },
    maxEntriesPerSecond: 10,
  });
  return operationId;
}
