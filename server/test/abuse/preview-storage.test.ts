// Preview storage (docs/security.md, "Preview storage"): a restore preview or backup diff stores
// a bounded prefix of its differences, they expire unless an admin keeps them, a tenant's stored
// differences are capped, and only an operator reads their values. Real server, both databases.
import { ConnectError, Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  BackupDifferenceChange,
  BackupInsightService,
  StoreOperationState,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DIALECTS } from '../support/test-storage.js';

const ROW_CAP = 5;
const BYTE_CAP = 4096;
const TENANT_CAP = 10_000;
/** A value of about 1 KB: four differences fit the byte cap, a fifth does not. */
const KILOBYTE_VALUE = { text: 'v'.repeat(990) };

type Role = 'viewer' | 'operator' | 'admin';

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
}

/** Clients of one tenant for each role, with helpers to fill a tree and run comparisons. */
async function tenantOf(t: TestServer, tenant: string) {
  const clients = async (role: Role) => {
    const { token } = await t.server.tokens.issue({ tenant, roles: [role] });
    const transport = createGrpcTransport({
      baseUrl: t.server.grpcUrl,
      interceptors: [bearerInterceptor(token)],
    });
    return {
      data: createClient(TreeDataService, transport),
      backup: createClient(BackupControlService, transport),
      insight: createClient(BackupInsightService, transport),
    };
  };
  const admin = await clients('admin');
  const operator = await clients('operator');
  const viewer = await clients('viewer');
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error('the operation did not finish');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    admin,
    operator,
    viewer,
    async put(treeId: string, entries: Record<string, unknown>) {
      await admin.data.putEntries({
        treeId,
        entries: Object.entries(entries).map(([key, value]) => ({
          key,
          valueJson: JSON.stringify(value),
        })),
      });
    },
    async capture(treeId: string): Promise<string> {
      const handle = await admin.backup.startBackup({ name: 'full', scope: { treeId } });
      const { status } = await until(
        () => admin.backup.getBackupOperationStatus({ operationId: handle.operationId }),
        (r) => (r.status?.state ?? 0) >= StoreOperationState.SUCCEEDED,
      );
      if (status?.result.case !== 'capture') throw new Error(status?.error?.message);
      return status.result.value.backupId;
    },
    /** Starts a restore preview as a viewer and waits until it succeeded. */
    async preview(backupId: string): Promise<string> {
      const { operationId } = await viewer.insight.startRestorePreview({ backupId });
      const { status } = await until(
        () => viewer.insight.getBackupInsightOperationStatus({ operationId }),
        (r) => (r.status?.state ?? 0) >= StoreOperationState.SUCCEEDED,
      );
      expect(status?.state, status?.error?.message).toBe(StoreOperationState.SUCCEEDED);
      return operationId;
    },
    /** Difference rows stored for an operation, counted in the database itself. */
    async storedRows(operationId: string): Promise<number> {
      const row = await t.server.storage.db
        .selectFrom('backup_comparison_differences')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('tenant', '=', tenant)
        .where('operation_id', '=', operationId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

/** A backup of `count` keys, then every key changed in the tree: a preview finds `count` CHANGED. */
async function changedEverywhere(tenant: Awaited<ReturnType<typeof tenantOf>>, count: number) {
  const keys = Array.from({ length: count }, (_, i) => `k${String(i).padStart(3, '0')}`);
  await tenant.put('orders', Object.fromEntries(keys.map((k) => [k, { v: 1 }])));
  const backupId = await tenant.capture('orders');
  await tenant.put('orders', Object.fromEntries(keys.map((k) => [k, { v: 2 }])));
  return { keys, backupId };
}

/** A backup of `count` 1 KB values whose keys were deleted since: a preview finds them ADDED. */
async function deletedSince(tenant: Awaited<ReturnType<typeof tenantOf>>, count: number) {
  const keys = Array.from({ length: count }, (_, i) => `big${i}`);
  await tenant.put('big', Object.fromEntries(keys.map((k) => [k, KILOBYTE_VALUE])));
  const backupId = await tenant.capture('big');
  for (const key of keys) await tenant.admin.data.deleteEntry({ treeId: 'big', key });
  return { keys, backupId };
}

describe.each(DIALECTS)('preview storage on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, {
      STORE_PREVIEW_MAX_STORED_DIFFERENCES: String(ROW_CAP),
      STORE_PREVIEW_MAX_STORED_BYTES: String(BYTE_CAP),
      STORE_PREVIEW_TENANT_MAX_BYTES: String(TENANT_CAP),
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('a preview of 40 changed keys stores the first 5 (the row cap), counts all 40 and lists as truncated', async () => {
    const tenant = await tenantOf(t, 'rows');
    const { keys, backupId } = await changedEverywhere(tenant, 40);
    const operationId = await tenant.preview(backupId);

    const { report, storage } = await tenant.viewer.insight.getBackupComparison({ operationId });
    expect(report?.counts).toMatchObject({ added: 0n, changed: 40n, removed: 0n });
    expect(storage).toMatchObject({ stored: 5n, truncated: true, kept: false, expired: false });
    expect(await tenant.storedRows(operationId)).toBe(ROW_CAP);

    const page = await tenant.operator.insight.listBackupDifferences({
      operationId,
      pageSize: 100,
    });
    expect(page.differences.map((d) => d.key)).toEqual(keys.slice(0, ROW_CAP));
    expect(page).toMatchObject({ truncated: true, storedCount: 5n, totalCount: 40n });
    expect(page.nextPageToken).toBe('');
  });

  it('a preview of 1 KB values stops at the byte cap before the row cap, its counts exact', async () => {
    const tenant = await tenantOf(t, 'bytes');
    const { keys, backupId } = await deletedSince(tenant, 8);
    const operationId = await tenant.preview(backupId);

    const { report, storage } = await tenant.viewer.insight.getBackupComparison({ operationId });
    expect(report?.counts).toMatchObject({ added: 8n, changed: 0n, removed: 0n });
    expect(storage).toMatchObject({ stored: 4n, truncated: true });
    expect(Number(storage?.storedBytes)).toBeLessThanOrEqual(BYTE_CAP);
    expect(await tenant.storedRows(operationId)).toBe(4);
    const page = await tenant.operator.insight.listBackupDifferences({ operationId });
    expect(page.differences.map((d) => d.key)).toEqual([...keys].sort().slice(0, 4));
    expect(page.differences[0]?.afterJson).toBe(JSON.stringify(KILOBYTE_VALUE));
  });

  it('a small preview is stored whole and lists as not truncated', async () => {
    const tenant = await tenantOf(t, 'small');
    const { backupId } = await changedEverywhere(tenant, 3);
    const operationId = await tenant.preview(backupId);
    const page = await tenant.operator.insight.listBackupDifferences({ operationId });
    expect(page).toMatchObject({ truncated: false, storedCount: 3n, totalCount: 3n });
    expect(page.differences).toHaveLength(3);
  });

  it("over the tenant's cap a new preview is ResourceExhausted naming the cap; another tenant still previews", async () => {
    const tenant = await tenantOf(t, 'full');
    const { backupId } = await deletedSince(tenant, 8);
    // Each preview stores about 4 KB; two leave less than one preview's room under 10 000 bytes.
    await tenant.preview(backupId);
    await tenant.preview(backupId);
    const refused = await failure(tenant.viewer.insight.startRestorePreview({ backupId }));
    expect(refused.code).toBe(Code.ResourceExhausted);
    expect(refused.rawMessage).toMatch(/STORE_PREVIEW_TENANT_MAX_BYTES/);
    expect(refused.rawMessage).toMatch(/retry after \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC, when/);
    const total = await t.server.storage.db
      .selectFrom('backup_comparison_storage')
      .select((eb) => eb.fn.sum<string | number>('stored_bytes').as('bytes'))
      .where('tenant', '=', 'full')
      .executeTakeFirst();
    expect(Number(total?.bytes)).toBeLessThanOrEqual(TENANT_CAP);

    const other = await tenantOf(t, 'other');
    const { backupId: otherBackup } = await changedEverywhere(other, 2);
    await other.preview(otherBackup);
  });

  it("a viewer's flood of 30 concurrent previews stores no more than the tenant's cap (plus one page of the other running preview); later ones are refused", async () => {
    const tenant = await tenantOf(t, 'flood');
    const { backupId } = await deletedSince(tenant, 8);
    const started = await Promise.allSettled(
      Array.from({ length: 30 }, () => tenant.viewer.insight.startRestorePreview({ backupId })),
    );
    const handles = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const r of started) {
      if (r.status === 'rejected')
        expect(ConnectError.from(r.reason).code).toBe(Code.ResourceExhausted);
    }
    for (const { operationId } of handles) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { status } = await tenant.viewer.insight.getBackupInsightOperationStatus({
          operationId,
        });
        if ((status?.state ?? 0) >= StoreOperationState.SUCCEEDED) {
          expect(status?.state).toBe(StoreOperationState.SUCCEEDED);
          break;
        }
        if (Date.now() > deadline) throw new Error(`${operationId} did not finish`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    const total = await t.server.storage.db
      .selectFrom('backup_comparison_storage')
      .select((eb) => eb.fn.sum<string | number>('stored_bytes').as('bytes'))
      .where('tenant', '=', 'flood')
      .executeTakeFirst();
    // Two operations run at once (STORE_OPERATION_CONCURRENCY): one page of the other at most.
    expect(Number(total?.bytes)).toBeLessThanOrEqual(TENANT_CAP + BYTE_CAP);
    const refused = await failure(tenant.viewer.insight.startRestorePreview({ backupId }));
    expect(refused.code).toBe(Code.ResourceExhausted);
  });

  it('a viewer lists keys and changes without values; an operator reads both values', async () => {
    const tenant = await tenantOf(t, 'values');
    const { backupId } = await changedEverywhere(tenant, 2);
    const operationId = await tenant.preview(backupId);

    const asViewer = await tenant.viewer.insight.listBackupDifferences({ operationId });
    expect(asViewer.valuesWithheld).toBe(true);
    expect(asViewer.differences.map((d) => [d.key, d.change, d.beforeJson, d.afterJson])).toEqual([
      ['k000', BackupDifferenceChange.CHANGED, undefined, undefined],
      ['k001', BackupDifferenceChange.CHANGED, undefined, undefined],
    ]);

    const asOperator = await tenant.operator.insight.listBackupDifferences({ operationId });
    expect(asOperator.valuesWithheld).toBe(false);
    expect(asOperator.differences.map((d) => [d.beforeJson, d.afterJson])).toEqual([
      ['{"v":2}', '{"v":1}'],
      ['{"v":2}', '{"v":1}'],
    ]);
  });
});

describe.each(DIALECTS)('expiry and keeping of preview differences on %s', (dialect) => {
  const TTL_SECONDS = 2;
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_PREVIEW_DIFFERENCES_TTL: String(TTL_SECONDS) });
  });
  afterAll(async () => {
    await t?.dispose();
  });
  const pastExpiry = () => new Promise((r) => setTimeout(r, TTL_SECONDS * 1000 + 300));

  it('expired differences list as FailedPrecondition with the time, the sweep deletes them, the report stays', async () => {
    const tenant = await tenantOf(t, 'expiring');
    const { backupId } = await changedEverywhere(tenant, 3);
    const operationId = await tenant.preview(backupId);
    const before = await tenant.viewer.insight.getBackupComparison({ operationId });
    const expiresAt = before.storage?.expiresAt;
    expect(expiresAt).toBeDefined();
    expect(Number(expiresAt?.seconds) * 1000).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000);
    await pastExpiry();

    const expired = await failure(tenant.operator.insight.listBackupDifferences({ operationId }));
    expect(expired.code).toBe(Code.FailedPrecondition);
    expect(expired.rawMessage).toMatch(
      /^the differences of this restore preview expired at \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC; run it again$/,
    );
    expect(await tenant.storedRows(operationId)).toBe(3);
    expect(await t.server.insight.sweeper.sweep()).toBeGreaterThanOrEqual(1);
    expect(await tenant.storedRows(operationId)).toBe(0);

    const after = await tenant.viewer.insight.getBackupComparison({ operationId });
    expect(after.report?.counts?.changed).toBe(3n);
    expect(after.storage).toMatchObject({ expired: true });
    expect(
      (await failure(tenant.operator.insight.listBackupDifferences({ operationId }))).code,
    ).toBe(Code.FailedPrecondition);
    // Too late to keep.
    expect((await failure(tenant.admin.insight.keepBackupComparison({ operationId }))).code).toBe(
      Code.FailedPrecondition,
    );
  });

  it('an admin keeps a preview past its expiry (viewer and operator may not); released, it expires again', async () => {
    const tenant = await tenantOf(t, 'keeping');
    const { backupId } = await changedEverywhere(tenant, 3);
    const operationId = await tenant.preview(backupId);
    for (const role of ['viewer', 'operator'] as const) {
      const refused = await failure(tenant[role].insight.keepBackupComparison({ operationId }));
      expect(refused.code, role).toBe(Code.PermissionDenied);
    }
    const kept = await tenant.admin.insight.keepBackupComparison({ operationId });
    expect(kept.storage).toMatchObject({ kept: true, expired: false });
    expect(kept.storage?.expiresAt).toBeUndefined();
    await pastExpiry();

    await t.server.insight.sweeper.sweep();
    expect(await tenant.storedRows(operationId)).toBe(3);
    const page = await tenant.operator.insight.listBackupDifferences({ operationId });
    expect(page.differences).toHaveLength(3);

    const released = await tenant.admin.insight.keepBackupComparison({
      operationId,
      release: true,
    });
    expect(released.storage).toMatchObject({ kept: false, expired: false });
    expect(released.storage?.expiresAt).toBeDefined();
    await pastExpiry();
    await t.server.insight.sweeper.sweep();
    expect(await tenant.storedRows(operationId)).toBe(0);
  });
});
