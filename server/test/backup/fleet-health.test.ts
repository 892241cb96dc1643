import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupInsightService,
  durationFromMs,
  StoreOperationKind,
  StoreOperationState,
  TreeProtection,
  type StoreOperationStatus,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

const HOUR_MS = 3_600_000;

/** The directory holding a backup's artifacts, wherever the artifact layout puts it. */
async function findBackupDir(root: string, backupId: string): Promise<string | undefined> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(root, entry.name);
    if (entry.name === backupId) return path;
    const found = await findBackupDir(path, backupId);
    if (found) return found;
  }
  return undefined;
}

describe.each(DIALECTS)('Catalog summary and verify stale backups on %s', (dialect) => {
  let s: BackupServer;
  let viewer: ReturnType<typeof createClient<typeof BackupInsightService>>;
  let operator: ReturnType<typeof createClient<typeof BackupInsightService>>;

  function clientFor(token: string) {
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(token)],
    });
    return createClient(BackupInsightService, transport);
  }

  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const issue = async (role: 'viewer' | 'operator') =>
      (await s.t.server.tokens.issue({ tenant: 'default', roles: [role] })).token;
    viewer = clientFor(await issue('viewer'));
    operator = clientFor(await issue('operator'));
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function finish(operationId: string): Promise<StoreOperationStatus> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { status } = await viewer.getBackupInsightOperationStatus({ operationId });
      if (!status) throw new Error(`operation ${operationId} is not visible`);
      if (status.state >= StoreOperationState.SUCCEEDED) return status;
      if (Date.now() > deadline) throw new Error(`operation ${operationId} still running`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function capture(treeId: string) {
    const handle = await s.backup.startBackup({ name: `full of ${treeId}`, scope: { treeId } });
    const status = await s.finish(handle.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    return status.result.value;
  }

  it('an empty tenant sums to zero, every verification count included', async () => {
    const summary = await viewer.getCatalogSummary({});
    expect(summary).toMatchObject({
      treeCount: 0n,
      backupCount: 0n,
      storedBytes: 0n,
      capturesSucceededLastDay: 0n,
      capturesFailedLastDay: 0n,
      unprotectedTreeCount: 0n,
      trees: [],
    });
    expect(summary.verification?.neverVerified).toBe(0n);
    expect(Number(summary.staleAfter?.seconds)).toBe(7 * 24 * 3600);
  });

  // Found by the malformed-request fuzzer: a window of ~2^63 s answered Internal (its echo does
  // not fit a Duration), and a stale check's "verified before" landed before year 1, a Timestamp
  // JSON cannot carry, which broke every later JSON listing of insight operations.
  it('a staleness window beyond 100 years is InvalidArgument, not Internal, and leaves no operation', async () => {
    const huge = { seconds: 9_223_372_036_854_775_807n, nanos: 0 };
    expect(await codeOf(viewer.getCatalogSummary({ staleAfter: huge }))).toBe(Code.InvalidArgument);
    expect(await codeOf(operator.startStaleHealthCheck({ olderThan: huge }))).toBe(
      Code.InvalidArgument,
    );
    const century = durationFromMs(100 * 366 * 24 * HOUR_MS);
    expect(
      Number((await viewer.getCatalogSummary({ staleAfter: century })).staleAfter?.seconds),
    ).toBe(Number(century.seconds));
    const { operations } = await viewer.listBackupInsightOperations({});
    expect(operations).toEqual([]);
  });

  it('counts trees, backups, bytes, captures, protection and verification; the stale check verifies what is stale', async () => {
    await s.put('alpha', { a: 1, b: 2 });
    await s.put('beta', { x: 'y' });
    await s.put('gamma', { only: true });
    const alpha1 = await capture('alpha');
    const alpha2 = await capture('alpha');
    const beta = await capture('beta');
    await s.backup.scheduleBackup({
      scope: { treeId: 'alpha' },
      incremental: false,
      interval: durationFromMs(HOUR_MS),
    });

    const summary = await viewer.getCatalogSummary({});
    const bytes = [alpha1, alpha2, beta].reduce((sum, b) => sum + (b.manifest?.byteSize ?? 0n), 0n);
    expect(bytes).toBeGreaterThan(0n);
    expect(summary).toMatchObject({
      treeCount: 3n,
      backupCount: 3n,
      storedBytes: bytes,
      capturesSucceededLastDay: 3n,
      capturesFailedLastDay: 0n,
      // beta and gamma have no schedule; alpha's backup is minutes old against a 1 h cadence.
      unprotectedTreeCount: 2n,
    });
    expect(summary.verification).toMatchObject({
      neverVerified: 3n,
      verifiedStale: 0n,
      verifiedRecently: 0n,
      corrupt: 0n,
    });
    const byTree = Object.fromEntries(summary.trees.map((tree) => [tree.treeId, tree]));
    expect(byTree.alpha).toMatchObject({ backupCount: 2n, protection: TreeProtection.PROTECTED });
    expect(Number(byTree.alpha?.scheduleInterval?.seconds)).toBe(3600);
    expect(byTree.beta).toMatchObject({ backupCount: 1n, protection: TreeProtection.NO_SCHEDULE });
    expect(byTree.beta?.scheduleInterval).toBeUndefined();
    expect(byTree.gamma).toMatchObject({ backupCount: 0n, storedBytes: 0n });
    expect(byTree.gamma?.lastSuccessAt).toBeUndefined();

    // beta's artifacts vanish: the stale check finds it MISSING and the others HEALTHY.
    const dir = await findBackupDir(join(s.t.location.dataDir, 'artifacts'), beta.backupId);
    if (!dir) throw new Error('no artifact directory for beta');
    await rm(dir, { recursive: true });

    expect(await codeOf(viewer.startStaleHealthCheck({}))).toBe(Code.PermissionDenied);
    expect(await codeOf(operator.startStaleHealthCheck({ olderThan: durationFromMs(-1000) }))).toBe(
      Code.InvalidArgument,
    );
    const handle = await operator.startStaleHealthCheck({});
    expect(handle.kind).toBe(StoreOperationKind.STALE_HEALTH_CHECK);
    const done = await finish(handle.operationId);
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    expect(done.progress).toMatchObject({ done: 3n, total: 3n, unit: 'backups' });
    if (done.result.case !== 'staleHealthCheck') throw new Error('no stale check result');
    expect(done.result.value).toMatchObject({
      selected: 3n,
      checked: 3n,
      healthy: 2n,
      missing: 1n,
      corrupt: 0n,
      skipped: 0n,
      unhealthyBackupIds: [beta.backupId],
    });
    const listed = await viewer.listBackupInsightOperations({
      kinds: [StoreOperationKind.STALE_HEALTH_CHECK],
    });
    expect(listed.operations.map((op) => op.operationId)).toEqual([handle.operationId]);

    const after = await viewer.getCatalogSummary({});
    expect(after.verification).toMatchObject({
      neverVerified: 0n,
      verifiedRecently: 3n,
      healthy: 2n,
      missing: 1n,
    });
    // Everything is fresh now: a second run with the default week selects nothing.
    const again = await finish((await operator.startStaleHealthCheck({})).operationId);
    expect(again.result.case === 'staleHealthCheck' && again.result.value.selected).toBe(0n);
    // A one-tree run with zero age re-checks only that tree's backups.
    const alphaOnly = await finish(
      (await operator.startStaleHealthCheck({ olderThan: durationFromMs(0), treeId: 'alpha' }))
        .operationId,
    );
    expect(alphaOnly.result.case === 'staleHealthCheck' && alphaOnly.result.value).toMatchObject({
      selected: 2n,
      healthy: 2n,
      treeId: 'alpha',
    });
    // A summary whose stale window is shorter than the checks' age counts them stale.
    await new Promise((r) => setTimeout(r, 20));
    const strict = await viewer.getCatalogSummary({ staleAfter: durationFromMs(5) });
    expect(strict.verification?.verifiedStale).toBe(3n);
  });

  it('a viewer cannot cancel a stale health check, an operator can', async () => {
    const { operationId } = await operator.startStaleHealthCheck({ olderThan: durationFromMs(0) });
    expect(await codeOf(viewer.cancelBackupInsightOperation({ operationId }))).toBe(
      Code.PermissionDenied,
    );
    await operator.cancelBackupInsightOperation({ operationId });
    const status = await finish(operationId);
    expect([StoreOperationState.CANCELLED, StoreOperationState.SUCCEEDED]).toContain(status.state);
  });

  // Found by the malformed-request fuzzer (FUZZ_SEED=401304872): a window with a sub-millisecond
  // part made "verified before" a fraction of a millisecond, which no Timestamp carries.
  it('a window with a sub-millisecond part still lists its stale check', async () => {
    const { operationId } = await operator.startStaleHealthCheck({
      olderThan: { seconds: 3600n, nanos: 999_023_437 },
    });
    const { operations } = await viewer.listBackupInsightOperations({});
    expect(operations.map((o) => o.operationId)).toContain(operationId);
    await finish(operationId);
  });
});
