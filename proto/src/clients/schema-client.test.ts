import { ConnectError, Code } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { StoreOperationState } from '../../gen/store/api/v1/operation_enums_pb.js';
import { StoreSchemaMode } from '../../gen/store/api/v1/schema_records_pb.js';
import { SchemaControlService } from '../../gen/store/schema/v1/schema_service_pb.js';
import { ArgumentError } from '../arguments.js';
import { createRecordingTransport } from '../testing/recording-transport.js';
import { createSchemaClient, type SchemaClient } from './schema-client.js';

const policy = { jsonSchema: '{"type":"object"}', mode: StoreSchemaMode.ENFORCE };
const transform = { ops: [{ op: 'add', path: '/v', valueJson: '2' }] };

function fixture() {
  const { transport, calls } = createRecordingTransport(SchemaControlService, {
    setPolicy: () => ({}),
    clearPolicy: (req) => ({ removed: req.treeId === 'orders' }),
    getPolicy: (req) => (req.treeId === 'orders' ? { found: true, policy } : { found: false }),
    async *streamDeadLetters() {
      yield { key: 'k1' };
      yield { key: 'k2' };
    },
    countDeadLetters: () => ({ count: 7 }),
    setVersionConfig: () => ({}),
    getVersionConfig: (req) =>
      req.treeId === 'orders'
        ? { found: true, config: { currentVersion: 1, targetVersion: 2 } }
        : { found: false },
    advanceTargetVersion: (req) => ({
      config: { currentVersion: 1, targetVersion: req.newTargetVersion },
    }),
    clearVersionConfig: () => ({ removed: false }),
    getRemediationStatus: (req) =>
      req.treeId === 'orders' ? { report: { treeId: 'orders', scanned: 3n } } : {},
    startComplianceScan: (req) => ({ operationId: req.operationId ?? 'scan-1' }),
    startRemediation: (req) => ({ operationId: req.operationId ?? 'rem-1' }),
    startMigration: (req) => ({ operationId: req.operationId ?? 'mig-1' }),
    startAdvanceAndMigrate: (req) => ({ operationId: req.operationId ?? 'adv-1' }),
    getComplianceScanStatus: (req) =>
      req.operationId === 'known' ? { status: { operationId: 'known' } } : {},
    cancelComplianceScan: () => ({}),
    getSchemaOperationStatus: (req) =>
      req.operationId === 'known'
        ? { status: { operationId: 'known', state: StoreOperationState.SUCCEEDED } }
        : {},
    cancelSchemaOperation: () => ({}),
    listSchemaOperations: () => ({ nextPageToken: 'n' }),
    listComplianceScans: () => ({ nextPageToken: 's' }),
    probeCapabilities: (req) => ({ treeId: req.treeId }),
    getAuthScheme: () => ({ schemes: [{ schemeId: 'bearer' }, { schemeId: 'oidc' }] }),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the deprecated RPC
    scanCompliance: (req) => ({ report: { treeId: req.treeId, compliant: 2n } }),
  });
  return { client: createSchemaClient(transport), calls };
}

function attempt(call: () => unknown): Promise<unknown> {
  return Promise.resolve().then(call);
}

describe('createSchemaClient', () => {
  it('when the transport is missing, it throws TypeError', () => {
    expect(() => createSchemaClient(undefined as never)).toThrow(TypeError);
  });
});

describe('schema client argument validation (spec 001, Client argument validation)', () => {
  /* eslint-disable @typescript-eslint/no-deprecated -- the deprecated methods are part of the table */
  const takesTreeId: Array<[string, (c: SchemaClient, treeId: string) => unknown]> = [
    ['setPolicy', (c, t) => c.setPolicy(t, policy)],
    ['clearPolicy', (c, t) => c.clearPolicy(t)],
    ['getPolicy', (c, t) => c.getPolicy(t)],
    ['streamDeadLetters', (c, t) => c.streamDeadLetters(t)],
    ['countDeadLetters', (c, t) => c.countDeadLetters(t)],
    ['setVersionConfig', (c, t) => c.setVersionConfig(t, {})],
    ['getVersionConfig', (c, t) => c.getVersionConfig(t)],
    ['advanceTargetVersion', (c, t) => c.advanceTargetVersion(t, 2)],
    ['advanceAndMigrate', (c, t) => c.advanceAndMigrate(t, 2)],
    ['migrateToTargetVersion', (c, t) => c.migrateToTargetVersion(t)],
    ['clearVersionConfig', (c, t) => c.clearVersionConfig(t)],
    ['remediate', (c, t) => c.remediate(t, transform, policy)],
    ['getRemediationStatus', (c, t) => c.getRemediationStatus(t)],
    ['scanCompliance', (c, t) => c.scanCompliance(t)],
    ['startComplianceScan', (c, t) => c.startComplianceScan(t)],
    ['startRemediation', (c, t) => c.startRemediation(t, transform, policy)],
    ['startMigration', (c, t) => c.startMigration(t)],
    ['startAdvanceAndMigrate', (c, t) => c.startAdvanceAndMigrate(t, 2)],
    ['probeCapabilities', (c, t) => c.probeCapabilities(t)],
  ];
  const nullPolicy: Array<[string, (c: SchemaClient) => unknown]> = [
    ['setPolicy', (c) => c.setPolicy('orders', null as never)],
    ['remediate', (c) => c.remediate('orders', transform, null as never)],
    ['startRemediation', (c) => c.startRemediation('orders', transform, null as never)],
  ];
  /* eslint-enable @typescript-eslint/no-deprecated */

  it.each(takesTreeId)(
    'when %s gets a null or empty tree id, it throws ArgumentError and sends nothing',
    async (_, call) => {
      for (const treeId of ['', null as never, undefined as never]) {
        const { client, calls } = fixture();
        await expect(attempt(() => call(client, treeId))).rejects.toThrow(ArgumentError);
        expect(calls).toEqual([]);
      }
    },
  );

  it.each(nullPolicy)(
    'when %s gets a null policy, it throws TypeError and sends nothing',
    async (_, call) => {
      const { client, calls } = fixture();
      await expect(attempt(() => call(client))).rejects.toThrow(TypeError);
      expect(calls).toEqual([]);
    },
  );

  it.each([-1, 1.5, 2 ** 32])(
    'when the new target version is %s, it throws RangeError and sends nothing',
    async (version) => {
      const { client, calls } = fixture();
      await expect(attempt(() => client.advanceTargetVersion('orders', version))).rejects.toThrow(
        RangeError,
      );
      expect(calls).toEqual([]);
    },
  );
});

describe('schema client results (spec 001, Endpoints)', () => {
  it('unwraps Removed, Count and the auth-scheme descriptors', async () => {
    const { client } = fixture();
    expect(await client.clearPolicy('orders')).toBe(true);
    expect(await client.clearVersionConfig('orders')).toBe(false);
    expect(await client.countDeadLetters('orders')).toBe(7);
    const schemes = await client.getAuthScheme();
    expect(schemes.map((s) => s.schemeId)).toEqual(['bearer', 'oidc']);
  });

  it('when nothing is stored, getPolicy and getVersionConfig return null', async () => {
    const { client } = fixture();
    expect(await client.getPolicy('other')).toBeNull();
    expect(await client.getVersionConfig('other')).toBeNull();
    expect((await client.getPolicy('orders'))?.mode).toBe(StoreSchemaMode.ENFORCE);
    expect((await client.getVersionConfig('orders'))?.targetVersion).toBe(2);
  });

  it('when an operation is unknown or invisible, status and cancel return null', async () => {
    const { client } = fixture();
    expect(await client.getSchemaOperationStatus('missing')).toBeNull();
    expect(await client.cancelSchemaOperation('known')).toBeNull();
    expect(await client.getComplianceScanStatus('missing')).toBeNull();
    expect(await client.cancelComplianceScan('missing')).toBeNull();
    expect((await client.getSchemaOperationStatus('known'))?.state).toBe(
      StoreOperationState.SUCCEEDED,
    );
  });

  it('start methods send the optional operation id', async () => {
    const { client } = fixture();
    expect((await client.startComplianceScan('orders', 'a')).operationId).toBe('a');
    expect((await client.startRemediation('orders', transform, policy, 'b')).operationId).toBe('b');
    expect((await client.startMigration('orders', 'c')).operationId).toBe('c');
    expect((await client.startAdvanceAndMigrate('orders', 3, 'd')).operationId).toBe('d');
    expect((await client.startMigration('orders')).operationId).toBe('mig-1');
  });

  it('streamDeadLetters is an async sequence', async () => {
    const { client } = fixture();
    const keys: string[] = [];
    for await (const entry of client.streamDeadLetters('orders')) keys.push(entry.key);
    expect(keys).toEqual(['k1', 'k2']);
  });

  it('returns the resulting config, remediation status and reports', async () => {
    const { client } = fixture();
    expect((await client.advanceTargetVersion('orders', 5)).targetVersion).toBe(5);
    expect((await client.getRemediationStatus('orders')).scanned).toBe(3n);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- exercising the deprecated surface
    expect((await client.scanCompliance('orders'))?.compliant).toBe(2n);
  });

  it('getRemediationStatus of a tree never remediated is an empty report, never null (spec 001: Report is required)', async () => {
    const { client } = fixture();
    const empty = await client.getRemediationStatus('other');
    expect(empty).not.toBeNull();
    expect(empty.treeId).toBe('other');
    expect(empty.state).toBe(StoreOperationState.UNSPECIFIED);
    expect([empty.scanned, empty.transformed, empty.startedAt]).toEqual([0n, 0n, undefined]);
  });

  it('a null version config or transform is its default, sent without a TypeError (spec 001: value types)', async () => {
    /* eslint-disable @typescript-eslint/no-deprecated -- the deprecated remediate takes one too */
    const { client, calls } = fixture();
    await client.setVersionConfig('orders', null as never);
    await client.startRemediation('orders', undefined as never, policy);
    await client.remediate('orders', null as never, policy).catch(() => undefined);
    /* eslint-enable @typescript-eslint/no-deprecated */
    const sent = calls.map((c) => c.message as { config?: unknown; transform?: unknown });
    expect(sent[0]?.config).toMatchObject({ currentVersion: 0, targetVersion: 0, migrations: [] });
    expect(sent[1]?.transform).toMatchObject({ ops: [] });
    expect(sent[2]?.transform).toMatchObject({ ops: [] });
  });

  it('a server error reaches the caller unchanged, sent once', async () => {
    const { transport, calls } = createRecordingTransport(SchemaControlService, {});
    const error = await createSchemaClient(transport)
      .getPolicy('orders')
      .catch((e: unknown) => e);
    expect(ConnectError.from(error).code).toBe(Code.Unimplemented);
    expect(calls).toHaveLength(1);
  });
});
