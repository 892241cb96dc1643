import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, SchemaControlService } from '@store/contract';
import { BackupInsightService } from '@store/contract/gen/store/insight/v1/backup_insight_pb.js';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startBackupServer, type BackupServer } from './backup/backup-fixture.js';
import { bearerInterceptor } from './support/bearer.js';
import { DIALECTS } from './support/test-storage.js';

/** The runner's longest tracking id, and the restore engine's longest idempotency key. */
const MAX_TRACKING_ID = 256;
const MAX_RESTORE_OPERATION_ID = 200;

/** How a start call fails (or 'ok'), with the error message that names the field. */
async function outcomeOf(call: Promise<unknown>): Promise<{ code: Code | 'ok'; message: string }> {
  try {
    await call;
    return { code: 'ok', message: '' };
  } catch (error) {
    const connectError = ConnectError.from(error);
    return { code: connectError.code, message: connectError.rawMessage };
  }
}

describe.each(DIALECTS)('operation id limits of the start RPCs on %s', (dialect) => {
  let s: BackupServer;
  let schema: ReturnType<typeof createClient<typeof SchemaControlService>>;
  let backupInsight: ReturnType<typeof createClient<typeof BackupInsightService>>;
  let schemaInsight: ReturnType<typeof createClient<typeof SchemaInsightService>>;
  let full = '';
  let newer = '';

  beforeAll(async () => {
    // Every start RPC in a row, five of them previews or dry-runs: room for all of them under
    // the tenant's preview cap (the caps have their own tests, operation-caps.test.ts).
    s = await startBackupServer(dialect, { STORE_OPERATION_PREVIEW_CAP: '16' });
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(ADMIN_TOKEN)],
    });
    schema = createClient(SchemaControlService, transport);
    backupInsight = createClient(BackupInsightService, transport);
    schemaInsight = createClient(SchemaInsightService, transport);
    await s.put('lim', { a: { n: 1 }, b: { n: 2 } });
    await s.put('other', { c: { n: 3 } });
    const first = await s.backup.startBackup({ name: 'base', scope: { treeId: 'lim' } });
    await s.finish(first.operationId);
    full = (await s.backup.listBackups({ treeId: 'lim' })).backups[0]!.backupId;
    const second = await s.backup.startBackup({ name: 'newer', scope: { treeId: 'lim' } });
    await s.finish(second.operationId);
    newer = (await s.backup.listBackups({ treeId: 'lim' })).backups.find(
      (b) => b.backupId !== full,
    )!.backupId;
    // An in-place restore of a tree of its own, for the revert preview (one restore since).
    await s.put('rev', { r: { n: 1 } });
    const revBackup = await s.backup.startBackup({ name: 'rev', scope: { treeId: 'rev' } });
    await s.finish(revBackup.operationId);
    const revId = (await s.backup.listBackups({ treeId: 'rev' })).backups[0]!.backupId;
    const restore = await s.backup.startRestore({ backupId: revId, operationId: 'rev-restore' });
    await s.finish(restore.operationId);
    await schema.setPolicy({ treeId: 'lim', policy: { jsonSchema: '{"type":"object"}' } });
    await schema.setVersionConfig({
      treeId: 'lim',
      config: { currentVersion: 1, targetVersion: 1 },
    });
  }, 60_000);
  afterAll(async () => {
    await s?.t.dispose();
  });

  // Every start RPC that takes a tracking id, with an otherwise valid request: an id of the
  // longest allowed length is accepted, one of 5 000 characters is InvalidArgument naming it.
  // (The schema RPCs call the field operation_id; the runner names it tracking_operation_id.)
  const starts: Array<[string, (id: string) => Promise<unknown>]> = [
    [
      'StartBackup',
      (id) =>
        s.backup.startBackup({ name: 'x', scope: { treeId: 'lim' }, trackingOperationId: id }),
    ],
    [
      'StartIncrementalBackup',
      (id) =>
        s.backup.startIncrementalBackup({
          name: 'x',
          scope: { treeId: 'lim' },
          baseBackupId: full,
          trackingOperationId: id,
        }),
    ],
    [
      'StartBackupSet',
      (id) =>
        s.backup.startBackupSet({
          name: 'x',
          scopes: [{ treeId: 'lim' }, { treeId: 'other' }],
          trackingOperationId: id,
        }),
    ],
    ['StartRestore', (id) => s.backup.startRestore({ backupId: full, trackingOperationId: id })],
    [
      'StartColdRestore',
      (id) => s.backup.startColdRestore({ backupId: full, trackingOperationId: id }),
    ],
    [
      'StartBackupHealthCheck',
      (id) => s.backup.startBackupHealthCheck({ backupId: full, trackingOperationId: id }),
    ],
    ['StartCatalogRebuild', (id) => s.backup.startCatalogRebuild({ trackingOperationId: id })],
    ['StartCatalogScrub', (id) => s.backup.startCatalogScrub({ trackingOperationId: id })],
    ['StartComplianceScan', (id) => schema.startComplianceScan({ treeId: 'lim', operationId: id })],
    [
      'StartRemediation',
      (id) =>
        schema.startRemediation({
          treeId: 'lim',
          transform: { ops: [] },
          targetPolicy: { jsonSchema: '{"type":"object"}' },
          operationId: id,
        }),
    ],
    ['StartMigration', (id) => schema.startMigration({ treeId: 'lim', operationId: id })],
    [
      'StartAdvanceAndMigrate',
      (id) =>
        schema.startAdvanceAndMigrate({ treeId: 'lim', newTargetVersion: 1, operationId: id }),
    ],
    [
      'StartRestorePreview',
      (id) => backupInsight.startRestorePreview({ backupId: full, trackingOperationId: id }),
    ],
    [
      'StartBackupDiff',
      (id) =>
        backupInsight.startBackupDiff({
          fromBackupId: full,
          toBackupId: newer,
          trackingOperationId: id,
        }),
    ],
    [
      'StartRevertPreview',
      (id) =>
        backupInsight.startRevertPreview({
          restoreOperationId: 'rev-restore',
          trackingOperationId: id,
        }),
    ],
    [
      'StartStaleHealthCheck',
      (id) => backupInsight.startStaleHealthCheck({ treeId: 'lim', trackingOperationId: id }),
    ],
    [
      'StartMigrationPreview',
      (id) => schemaInsight.startMigrationPreview({ treeId: 'lim', operationId: id }),
    ],
    [
      'StartPolicyDryRun',
      (id) => schemaInsight.startPolicyDryRun({ treeId: 'lim', jsonSchema: '{}', operationId: id }),
    ],
    [
      'StartDeadLetterReplay',
      (id) => schemaInsight.startDeadLetterReplay({ treeId: 'lim', operationId: id }),
    ],
  ];

  it('the table holds every start RPC of the four services that take a tracking id', () => {
    const services = [
      BackupControlService,
      SchemaControlService,
      BackupInsightService,
      SchemaInsightService,
    ];
    const everyStart = services.flatMap((service) =>
      service.methods.filter((m) => m.name.startsWith('Start')).map((m) => m.name),
    );
    expect(starts.map(([name]) => name).sort()).toEqual(everyStart.sort());
  });

  it.each(starts)('%s: a 5 000-character tracking id is InvalidArgument', async (name, start) => {
    // Tracking ids are the tenant's: one of its own for each start RPC.
    const accepted = await outcomeOf(start(`${name}-`.padEnd(MAX_TRACKING_ID, 't')));
    expect(accepted.code, accepted.message).toBe('ok');
    const refused = await outcomeOf(start('t'.repeat(5_000)));
    expect(refused.code).toBe(Code.InvalidArgument);
    expect(refused.message).toContain('operation_id');
  });

  it.each([
    [
      'StartRestore',
      (operationId: string) => s.backup.startRestore({ backupId: full, operationId }),
    ],
    [
      'StartColdRestore',
      (operationId: string) => s.backup.startColdRestore({ backupId: full, operationId }),
    ],
  ] as const)(
    '%s: a restore-engine operation id over its limit is InvalidArgument (the check used to lack its throw)',
    async (name, start) => {
      const accepted = await outcomeOf(start(`${name}-`.padEnd(MAX_RESTORE_OPERATION_ID, 'r')));
      expect(accepted.code, accepted.message).toBe('ok');
      for (const length of [MAX_RESTORE_OPERATION_ID + 1, 5_000]) {
        const refused = await outcomeOf(start('r'.repeat(length)));
        expect(refused.code, `${length} characters`).toBe(Code.InvalidArgument);
        expect(refused.message).toContain('operation_id');
      }
    },
  );
});
