// Issue 34, bullet 3 (AIP-155): every Start RPC that takes a tracking id, through the real
// server on both databases. The same request sent again under the id returns the operation it
// started, whether that one is running, failed or succeeded, and although the world its checks
// look at moved on since (a retention preview's fingerprint, a restore's empty target tree);
// another request under the id is AlreadyExists.
import { Code, createClient, type Client } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupInsightService,
  BackupLifecycleService,
  SchemaControlService,
  StoreOperationState,
  StoreRestoreMode,
  StoreSchemaMode,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationState } from '../../src/engines/operations/index.js';
import {
  ADMIN_TOKEN,
  codeOf,
  startBackupServer,
  type BackupServer,
} from '../backup/backup-fixture.js';
import { capture, settleLifecycle } from '../backup/lifecycle-fixture.js';
import { bearerInterceptor } from '../support/bearer.js';
import { NAMED } from '../support/schema-harness.js';
import { DIALECTS } from '../support/test-storage.js';

/** One Start RPC: the request under a tracking id, another request under it, and (optionally)
 * a change after which the checks a new start meets would refuse that request. */
/** What each service's handle carries (schema insight has its own message). */
interface Handle {
  operationId: string;
  kind: number;
}

interface StartCase {
  rpc: string;
  start(trackingId: string): Promise<Handle>;
  other(trackingId: string): Promise<Handle>;
  moveOn?(): Promise<void>;
}

interface Clients {
  insight: Client<typeof BackupInsightService>;
  lifecycle: Client<typeof BackupLifecycleService>;
  schema: Client<typeof SchemaControlService>;
  schemaInsight: Client<typeof SchemaInsightService>;
}

/** The fixture the cases start against, made while the server still runs its operations. */
interface Fixture {
  full: string;
  incremental: string;
  restoreOperationId: string;
  retentionFingerprint: string;
}

const VERSIONED = 'versioned';
/** The retention scope: two full backups, of which rules keeping the last one delete one. */
const RETAINED = { treeId: 'retained' };

function startCases(s: BackupServer, c: Clients, f: Fixture): StartCase[] {
  const scope = { treeId: 'src' };
  const restore = (mode: StoreRestoreMode, targetTreeId: string) => ({
    backupId: f.full,
    mode,
    targetTreeId,
  });
  return [
    {
      rpc: 'StartBackup',
      start: (id) => s.backup.startBackup({ name: 'a', scope, trackingOperationId: id }),
      other: (id) => s.backup.startBackup({ name: 'b', scope, trackingOperationId: id }),
    },
    {
      rpc: 'StartIncrementalBackup',
      start: (id) =>
        s.backup.startIncrementalBackup({
          name: 'a',
          scope,
          baseBackupId: f.full,
          trackingOperationId: id,
        }),
      other: (id) =>
        s.backup.startIncrementalBackup({
          name: 'a',
          scope,
          baseBackupId: f.incremental,
          trackingOperationId: id,
        }),
    },
    {
      rpc: 'StartBackupSet',
      start: (id) =>
        s.backup.startBackupSet({ name: 'a', scopes: [scope], trackingOperationId: id }),
      other: (id) =>
        s.backup.startBackupSet({
          name: 'a',
          scopes: [scope, { treeId: VERSIONED }],
          trackingOperationId: id,
        }),
    },
    {
      rpc: 'StartRestore',
      start: (id) =>
        s.backup.startRestore({
          ...restore(StoreRestoreMode.NEW_TREE, 'restored-hot'),
          trackingOperationId: id,
        }),
      other: (id) =>
        s.backup.startRestore({
          ...restore(StoreRestoreMode.NEW_TREE, 'restored-elsewhere'),
          trackingOperationId: id,
        }),
      // What the restore itself would have done: a new start into that tree is refused now.
      moveOn: () => s.put('restored-hot', { written: true }),
    },
    {
      rpc: 'StartColdRestore',
      start: (id) =>
        s.backup.startColdRestore({
          ...restore(StoreRestoreMode.NEW_TREE, 'restored-cold'),
          trackingOperationId: id,
        }),
      other: (id) =>
        s.backup.startColdRestore({
          ...restore(StoreRestoreMode.NEW_TREE, 'restored-cold-elsewhere'),
          trackingOperationId: id,
        }),
      moveOn: () => s.put('restored-cold', { written: true }),
    },
    {
      rpc: 'StartBackupHealthCheck',
      start: (id) => s.backup.startBackupHealthCheck({ backupId: f.full, trackingOperationId: id }),
      other: (id) =>
        s.backup.startBackupHealthCheck({ backupId: f.incremental, trackingOperationId: id }),
    },
    {
      rpc: 'StartCatalogRebuild',
      start: (id) => s.backup.startCatalogRebuild({ trackingOperationId: id }),
      other: (id) => s.backup.startCatalogScrub({ trackingOperationId: id }),
    },
    {
      rpc: 'StartCatalogScrub',
      start: (id) => s.backup.startCatalogScrub({ trackingOperationId: id }),
      other: (id) => s.backup.startCatalogScrub({ pruneOrphans: true, trackingOperationId: id }),
    },
    {
      rpc: 'StartRestorePreview',
      start: (id) => c.insight.startRestorePreview({ backupId: f.full, trackingOperationId: id }),
      other: (id) =>
        c.insight.startRestorePreview({ backupId: f.incremental, trackingOperationId: id }),
    },
    {
      rpc: 'StartBackupDiff',
      start: (id) =>
        c.insight.startBackupDiff({
          fromBackupId: f.full,
          toBackupId: f.incremental,
          trackingOperationId: id,
        }),
      other: (id) =>
        c.insight.startBackupDiff({
          fromBackupId: f.incremental,
          toBackupId: f.full,
          trackingOperationId: id,
        }),
    },
    {
      rpc: 'StartRevertPreview',
      start: (id) =>
        c.insight.startRevertPreview({
          restoreOperationId: f.restoreOperationId,
          trackingOperationId: id,
        }),
      other: (id) =>
        c.insight.startRevertPreview({ restoreOperationId: 'op-other', trackingOperationId: id }),
    },
    {
      rpc: 'StartStaleHealthCheck',
      start: (id) => c.insight.startStaleHealthCheck({ trackingOperationId: id }),
      other: (id) => c.insight.startStaleHealthCheck({ treeId: 'src', trackingOperationId: id }),
    },
    {
      rpc: 'StartRetentionApply',
      start: (id) =>
        c.lifecycle.startRetentionApply({
          scope: RETAINED,
          expectedFingerprint: f.retentionFingerprint,
          trackingOperationId: id,
        }),
      other: (id) =>
        c.lifecycle.startRetentionApply({
          scope: RETAINED,
          expectedFingerprint: 'f'.repeat(64),
          trackingOperationId: id,
        }),
      // New rules move the fingerprint: applying that preview is refused to a new start now.
      moveOn: async () => {
        await c.lifecycle.setRetentionRules({ scope: RETAINED, rules: { keepLast: 9 } });
      },
    },
    {
      rpc: 'StartComplianceScan',
      start: (id) => c.schema.startComplianceScan({ treeId: VERSIONED, operationId: id }),
      other: (id) => c.schema.startComplianceScan({ treeId: 'src', operationId: id }),
    },
    {
      rpc: 'StartRemediation',
      start: (id) =>
        c.schema.startRemediation({
          treeId: VERSIONED,
          transform: { ops: [{ op: 'add', path: '/name', valueJson: '"n"' }] },
          targetPolicy: { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT },
          operationId: id,
        }),
      other: (id) =>
        c.schema.startRemediation({
          treeId: VERSIONED,
          transform: { ops: [{ op: 'add', path: '/name', valueJson: '"m"' }] },
          targetPolicy: { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT },
          operationId: id,
        }),
    },
    {
      rpc: 'StartMigration',
      start: (id) => c.schema.startMigration({ treeId: VERSIONED, operationId: id }),
      other: (id) => c.schema.startAdvanceAndMigrate({ treeId: VERSIONED, operationId: id }),
    },
    {
      rpc: 'StartAdvanceAndMigrate',
      start: (id) =>
        c.schema.startAdvanceAndMigrate({
          treeId: VERSIONED,
          newTargetVersion: 3,
          operationId: id,
        }),
      other: (id) =>
        c.schema.startAdvanceAndMigrate({
          treeId: VERSIONED,
          newTargetVersion: 2,
          operationId: id,
        }),
    },
    {
      rpc: 'StartPolicyDryRun',
      start: (id) =>
        c.schemaInsight.startPolicyDryRun({
          treeId: VERSIONED,
          jsonSchema: NAMED,
          operationId: id,
        }),
      other: (id) =>
        c.schemaInsight.startPolicyDryRun({
          treeId: VERSIONED,
          jsonSchema: NAMED,
          sampleLimit: 5,
          operationId: id,
        }),
    },
    {
      rpc: 'StartMigrationPreview',
      start: (id) => c.schemaInsight.startMigrationPreview({ treeId: VERSIONED, operationId: id }),
      other: (id) =>
        c.schemaInsight.startMigrationPreview({
          treeId: VERSIONED,
          newTargetVersion: 3,
          operationId: id,
        }),
    },
    {
      rpc: 'StartDeadLetterReplay',
      start: (id) =>
        c.schemaInsight.startDeadLetterReplay({ treeId: VERSIONED, filter: {}, operationId: id }),
      other: (id) =>
        c.schemaInsight.startDeadLetterReplay({
          treeId: VERSIONED,
          filter: { keyPrefix: 'k' },
          operationId: id,
        }),
    },
  ];
}

describe.each(DIALECTS)('a Start RPC retried under its tracking id on %s', (dialect) => {
  let s: BackupServer;
  let c: Clients;
  let f: Fixture;
  beforeAll(async () => {
    s = await startBackupServer(dialect, {
      // Every case leaves a queued operation: no cap or start rate may refuse the next case.
      STORE_OPERATION_PREVIEW_CAP: '1000',
      STORE_PREVIEW_START_RATE: '0',
    });
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(ADMIN_TOKEN)],
    });
    c = {
      insight: createClient(BackupInsightService, transport),
      lifecycle: createClient(BackupLifecycleService, transport),
      schema: createClient(SchemaControlService, transport),
      schemaInsight: createClient(SchemaInsightService, transport),
    };
    const full = await capture(s, 'src');
    const incremental = await capture(s, 'src', full);
    // An in-place restore of another tree, for the revert preview.
    const restored = await capture(s, 'reverted');
    const restore = await s.finish(
      (await s.backup.startRestore({ backupId: restored, mode: StoreRestoreMode.IN_PLACE }))
        .operationId,
    );
    if (restore.result.case !== 'restore') throw new Error(restore.error?.message);
    await capture(s, RETAINED.treeId);
    await capture(s, RETAINED.treeId);
    await c.lifecycle.setRetentionRules({ scope: RETAINED, rules: { keepLast: 1 } });
    const { fingerprint } = await c.lifecycle.previewRetention({ scope: RETAINED });
    f = {
      full,
      incremental,
      restoreOperationId: restore.result.value.operationId,
      retentionFingerprint: fingerprint,
    };
    await s.put(VERSIONED, { k1: { name: 'a' }, k2: { other: 1 } });
    await c.schema.setPolicy({
      treeId: VERSIONED,
      policy: { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT },
    });
    await c.schema.setVersionConfig({
      treeId: VERSIONED,
      config: {
        currentVersion: 1,
        targetVersion: 2,
        migrations: [
          {
            fromVersion: 1,
            toVersion: 2,
            transform: { ops: [{ op: 'add', path: '/v2', valueJson: 'true' }] },
          },
          {
            fromVersion: 2,
            toVersion: 3,
            transform: { ops: [{ op: 'add', path: '/v3', valueJson: 'true' }] },
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('StartRetentionApply retried after the apply succeeded (its fingerprint moved on) returns that apply', async () => {
    const request = {
      scope: RETAINED,
      expectedFingerprint: f.retentionFingerprint,
      trackingOperationId: 'apply-for-real',
    };
    const first = await c.lifecycle.startRetentionApply(request);
    const done = await settleLifecycle(c.lifecycle, first.operationId);
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    const { fingerprint } = await c.lifecycle.previewRetention({ scope: RETAINED });
    expect(fingerprint).not.toBe(f.retentionFingerprint);
    // A new start of that preview is refused; the lost response's retry is not.
    const fresh = { ...request, trackingOperationId: 'apply-new' };
    expect(await codeOf(c.lifecycle.startRetentionApply(fresh))).toBe(Code.FailedPrecondition);
    expect((await c.lifecycle.startRetentionApply(request)).operationId).toBe(first.operationId);
    f.retentionFingerprint = fingerprint;
  });

  describe('with its operation held in each state', () => {
    // The runner stops claiming, so each start stays queued until the test sets its state.
    beforeAll(async () => {
      await s.t.server.runner.stop();
    });

    async function hold(operationId: string, state: OperationState) {
      await s.t.server.storage.db
        .updateTable('operations')
        .set({ state })
        .where('id', '=', operationId)
        .execute();
    }

    it('returns the same operation for every Start RPC, and AlreadyExists for another request', async () => {
      const cases = startCases(s, c, f);
      expect(cases).toHaveLength(20);
      for (const start of cases) {
        const id = `retry-${start.rpc}`;
        const first = await start.start(id);
        await start.moveOn?.();
        if (start.moveOn) {
          // The world moved: the same request under a new tracking id is refused now.
          expect(await codeOf(start.start(`${id}-new`)), start.rpc).toBe(Code.FailedPrecondition);
        }
        for (const state of ['RUNNING', 'FAILED', 'SUCCEEDED'] as const) {
          await hold(first.operationId, state);
          const again = await start.start(id);
          expect(again.operationId, `${start.rpc} retried while ${state}`).toBe(first.operationId);
          expect(again.kind, start.rpc).toBe(first.kind);
        }
        expect(await codeOf(start.other(id)), start.rpc).toBe(Code.AlreadyExists);
      }
    });
  });
});
