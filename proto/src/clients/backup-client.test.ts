import { create } from '@bufbuild/protobuf';
import { ConnectError, Code } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import {
  BackupManifestSchema,
  BackupScopeCapabilitiesSchema,
} from '../../gen/store/api/v1/backup_records_pb.js';
import {
  StoreOperationKind,
  StoreOperationState,
} from '../../gen/store/api/v1/operation_enums_pb.js';
import { StoreOperationStatusSchema } from '../../gen/store/api/v1/operations_pb.js';
import { BackupControlService } from '../../gen/store/backup/v1/backup_service_pb.js';
import { ArgumentError } from '../arguments.js';
import { createRecordingTransport } from '../testing/recording-transport.js';
import { createBackupClient, type BackupClient } from './backup-client.js';

const scope = { treeId: 'orders' };

function fixture() {
  const { transport, calls } = createRecordingTransport(BackupControlService, {
    startBackup: (req) => ({ operationId: req.trackingOperationId || 'op-1', kind: 1 }),
    startIncrementalBackup: (req) => ({ operationId: req.trackingOperationId || 'op-2' }),
    startBackupSet: (req) => ({ operationId: req.trackingOperationId || 'op-3' }),
    startRestore: (req) => ({ operationId: req.trackingOperationId || 'op-4' }),
    startColdRestore: (req) => ({ operationId: req.trackingOperationId || 'op-5' }),
    startBackupHealthCheck: (req) => ({ operationId: req.trackingOperationId || 'op-6' }),
    startCatalogRebuild: (req) => ({ operationId: req.trackingOperationId || 'op-7' }),
    startCatalogScrub: (req) => ({
      operationId: `${req.pruneOrphans ? 'prune' : 'keep'}:${req.trackingOperationId ?? ''}`,
    }),
    getBackupOperationStatus: (req) =>
      req.operationId === 'known'
        ? {
            status: create(StoreOperationStatusSchema, {
              operationId: 'known',
              kind: StoreOperationKind.BACKUP,
              state: StoreOperationState.RUNNING,
            }),
          }
        : {},
    cancelBackupOperation: (req) =>
      req.operationId === 'known'
        ? { status: { operationId: 'known', state: StoreOperationState.CANCELLED } }
        : {},
    listBackupOperations: (req) => ({ nextPageToken: `after:${req.pageToken}` }),
    describeBackup: (req) =>
      req.backupId === 'b1'
        ? { found: true, manifest: { backupId: 'b1' }, chainBackupIds: ['b0', 'b1'] }
        : { found: false },
    deleteBackup: (req) => ({ deleted: req.backupId === 'b1' && req.cascade }),
    listBackups: () => ({ backups: [{ backupId: 'b1' }] }),
    async *streamBackups() {
      yield create(BackupManifestSchema, { backupId: 'b1' });
      yield create(BackupManifestSchema, { backupId: 'b2' });
    },
    async *exportArtifact() {
      yield { data: new Uint8Array([1, 2]) };
      yield { data: new Uint8Array([3]) };
    },
    revertRestore: () => ({}),
    getAuthScheme: () => ({ schemes: [{ schemeId: 'bearer', displayName: 'API token' }] }),
    probeCapabilities: (req) =>
      create(BackupScopeCapabilitiesSchema, { treeId: req.scope?.treeId ?? '' }),
    scheduleBackup: (req) => ({
      scheduled: true,
      effectiveInterval: {
        seconds: req.interval && req.interval.seconds < 60n ? 60n : (req.interval?.seconds ?? 0n),
      },
    }),
    cancelSchedule: () => ({}),
    getScopeStatus: (req) =>
      req.scope?.treeId === 'orders' ? { found: true, chainDepth: 2 } : { found: false },
    isHealthMonitoringAvailable: () => ({ available: true }),
    getBackupHealth: (req) =>
      req.backupId === 'b1' ? { found: true, report: { backupId: 'b1' } } : { found: false },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    checkBackupHealth: (req) => ({ found: true, report: { backupId: req.backupId } }),
    configureBackupHealth: () => ({}),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    createBackup: () => ({ backupId: 'b9' }),
  });
  return { client: createBackupClient(transport), calls };
}

/** Runs a client call that may throw synchronously or reject, as one promise. */
function attempt(call: () => unknown): Promise<unknown> {
  return Promise.resolve().then(call);
}

describe('createBackupClient', () => {
  it('when the transport is missing, it throws TypeError', () => {
    expect(() => createBackupClient(undefined as never)).toThrow(TypeError);
    expect(() => createBackupClient(null as never)).toThrow(TypeError);
  });
});

describe('backup client argument validation (spec 000, Client argument validation)', () => {
  /* eslint-disable @typescript-eslint/no-deprecated -- the obsolete methods are part of the table */
  const nullRequest: Array<[string, (c: BackupClient) => unknown]> = [
    ['createBackup', (c) => c.createBackup(null as never)],
    ['createIncrementalBackup', (c) => c.createIncrementalBackup(null as never)],
    ['createBackupSet', (c) => c.createBackupSet(null as never)],
    ['listBackups', (c) => c.listBackups(null as never)],
    ['restoreBackup', (c) => c.restoreBackup(null as never)],
    ['revertRestore', (c) => c.revertRestore(null as never)],
    ['getAuthScheme', (c) => c.getAuthScheme(null as never)],
  ];
  const emptyId: Array<[string, (c: BackupClient, id: string) => unknown]> = [
    ['describeBackup', (c, id) => c.describeBackup(id)],
    ['deleteBackup', (c, id) => c.deleteBackup(id)],
    ['exportArtifact (backup id)', (c, id) => c.exportArtifact(id, 'a1')],
    ['exportArtifact (artifact id)', (c, id) => c.exportArtifact('b1', id)],
    ['checkBackupHealth', (c, id) => c.checkBackupHealth(id)],
    ['startBackupHealthCheck', (c, id) => c.startBackupHealthCheck(id)],
    ['getBackupHealth', (c, id) => c.getBackupHealth(id)],
    [
      'configureBackupHealth',
      (c, id) => c.configureBackupHealth(id, { monitoringEnabled: true, intervalMs: 1000 }),
    ],
  ];
  const nullScope: Array<[string, (c: BackupClient) => unknown]> = [
    ['probeCapabilities', (c) => c.probeCapabilities(null as never)],
    ['scheduleBackup', (c) => c.scheduleBackup(null as never, false, 60_000)],
    ['cancelSchedule', (c) => c.cancelSchedule(null as never, false)],
    ['getScopeStatus', (c) => c.getScopeStatus(null as never)],
  ];
  /* eslint-enable @typescript-eslint/no-deprecated */

  it.each(nullRequest)(
    'when %s gets a null request, it throws TypeError and sends nothing',
    async (_, call) => {
      const { client, calls } = fixture();
      await expect(attempt(() => call(client))).rejects.toThrow(TypeError);
      expect(calls).toEqual([]);
    },
  );

  it.each(emptyId)(
    'when %s gets an empty id, it throws ArgumentError and sends nothing',
    async (_, call) => {
      for (const id of ['', null as never, undefined as never]) {
        const { client, calls } = fixture();
        await expect(attempt(() => call(client, id))).rejects.toThrow(ArgumentError);
        expect(calls).toEqual([]);
      }
    },
  );

  it.each(nullScope)(
    'when %s gets a null scope, it throws TypeError and sends nothing',
    async (_, call) => {
      const { client, calls } = fixture();
      await expect(attempt(() => call(client))).rejects.toThrow(TypeError);
      expect(calls).toEqual([]);
    },
  );

  it('when configureBackupHealth gets a null config, it throws TypeError and sends nothing', async () => {
    const { client, calls } = fixture();
    await expect(attempt(() => client.configureBackupHealth('b1', null as never))).rejects.toThrow(
      TypeError,
    );
    expect(calls).toEqual([]);
  });

  it.each([0, -1, -60_000, Number.NaN])(
    'when scheduleBackup gets interval %s, it throws RangeError and sends nothing',
    async (interval) => {
      const { client, calls } = fixture();
      await expect(attempt(() => client.scheduleBackup(scope, true, interval))).rejects.toThrow(
        RangeError,
      );
      expect(calls).toEqual([]);
    },
  );

  it('when monitoring is enabled with a non-positive interval, configureBackupHealth throws RangeError', async () => {
    const { client, calls } = fixture();
    await expect(
      attempt(() => client.configureBackupHealth('b1', { monitoringEnabled: true, intervalMs: 0 })),
    ).rejects.toThrow(RangeError);
    expect(calls).toEqual([]);
  });
});

describe('backup client results (spec 000, Endpoints)', () => {
  it('start methods send the optional operation id as the tracking id', async () => {
    const { client, calls } = fixture();
    expect((await client.startBackup({ name: 'n', scope }, 'track-1')).operationId).toBe('track-1');
    expect(
      (await client.startIncrementalBackup({ name: 'n', scope, baseBackupId: 'b0' }, 'track-2'))
        .operationId,
    ).toBe('track-2');
    expect(
      (await client.startBackupSet({ name: 'n', scopes: [scope, { treeId: 'x' }] }, 'track-3'))
        .operationId,
    ).toBe('track-3');
    expect((await client.startRestore({ backupId: 'b1' }, 'track-4')).operationId).toBe('track-4');
    expect((await client.startColdRestore({ backupId: 'b1' }, 'track-5')).operationId).toBe(
      'track-5',
    );
    expect((await client.startBackupHealthCheck('b1', 'track-6')).operationId).toBe('track-6');
    expect((await client.startCatalogRebuild('track-7')).operationId).toBe('track-7');
    expect((await client.startCatalogScrub(true, 'track-8')).operationId).toBe('prune:track-8');
    expect(calls).toHaveLength(8);
  });

  it('without an operation id, start methods send no tracking id and scrub keeps orphans', async () => {
    const { client } = fixture();
    expect((await client.startBackup({ name: 'n', scope })).operationId).toBe('op-1');
    expect((await client.startCatalogScrub()).operationId).toBe('keep:');
  });

  it('when the operation is unknown or invisible, status and cancel return null', async () => {
    const { client } = fixture();
    expect(await client.getBackupOperationStatus('missing')).toBeNull();
    expect(await client.cancelBackupOperation('missing')).toBeNull();
    expect((await client.getBackupOperationStatus('known'))?.state).toBe(
      StoreOperationState.RUNNING,
    );
    expect((await client.cancelBackupOperation('known'))?.state).toBe(
      StoreOperationState.CANCELLED,
    );
  });

  it('when a backup is absent, describe returns null; otherwise the chain', async () => {
    const { client } = fixture();
    expect(await client.describeBackup('nope')).toBeNull();
    expect((await client.describeBackup('b1'))?.chainBackupIds).toEqual(['b0', 'b1']);
  });

  it('deleteBackup returns the Deleted bool and sends cascade', async () => {
    const { client } = fixture();
    expect(await client.deleteBackup('b1', { cascade: true })).toBe(true);
    expect(await client.deleteBackup('b1')).toBe(false);
  });

  it('when the scope is absent, getScopeStatus returns null', async () => {
    const { client } = fixture();
    expect(await client.getScopeStatus({ treeId: 'other' })).toBeNull();
    expect((await client.getScopeStatus(scope))?.chainDepth).toBe(2);
  });

  it('when no report is stored, getBackupHealth returns null', async () => {
    const { client } = fixture();
    expect(await client.getBackupHealth('b2')).toBeNull();
    expect((await client.getBackupHealth('b1'))?.backupId).toBe('b1');
  });

  it('scheduleBackup returns the effective interval the server registered', async () => {
    const { client, calls } = fixture();
    expect(await client.scheduleBackup(scope, false, 5_000)).toBe(60_000);
    expect(await client.scheduleBackup(scope, true, 120_000)).toBe(120_000);
    expect(calls[0]?.message).toMatchObject({ incremental: false, interval: { seconds: 5n } });
  });

  it('streamBackups and exportArtifact are async sequences', async () => {
    const { client } = fixture();
    const ids: string[] = [];
    for await (const manifest of client.streamBackups()) ids.push(manifest.backupId);
    expect(ids).toEqual(['b1', 'b2']);
    const bytes: number[] = [];
    for await (const chunk of client.exportArtifact('b1', 'a1')) bytes.push(...chunk);
    expect(bytes).toEqual([1, 2, 3]);
  });

  it('unwraps health availability, auth schemes and capabilities', async () => {
    const { client } = fixture();
    expect(await client.isHealthMonitoringAvailable()).toBe(true);
    expect((await client.getAuthScheme()).schemes[0]?.schemeId).toBe('bearer');
    expect((await client.probeCapabilities(scope)).treeId).toBe('orders');
  });

  it('the obsolete blocking methods still work', async () => {
    const { client } = fixture();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- exercising the obsolete surface
    expect((await client.createBackup({ name: 'n', scope })).backupId).toBe('b9');
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- exercising the obsolete surface
    expect((await client.checkBackupHealth('b3'))?.backupId).toBe('b3');
  });

  it('a server error reaches the caller unchanged, sent once: the client adds no policy', async () => {
    const { transport, calls } = createRecordingTransport(BackupControlService, {});
    const client = createBackupClient(transport);
    const error = await client.listBackups().catch((e: unknown) => e);
    expect(ConnectError.from(error).code).toBe(Code.Unimplemented);
    expect(calls).toHaveLength(1);
  });
});
