import { Code } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeName } from '../../src/transport/audit-interceptor.js';
import { callMethod, everyMethod } from '../support/call-every-rpc.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DIALECTS } from '../support/test-storage.js';
import { STATE_CHANGING, auditClient, bearer, issue } from './audit-support.js';

const SERVICES = [BackupControlService, SchemaControlService, TreeDataService, IdentityService];
const protectedMethods = everyMethod(SERVICES).filter(([, m]) => m.name !== 'GetAuthScheme');

describe.each(DIALECTS)('the audit trail records calls on %s', (dialect) => {
  let t: TestServer;
  let admin: { token: string; subject: string };
  let viewer: { token: string; subject: string };
  let otherAdmin: { token: string; subject: string };
  let audit: ReturnType<typeof auditClient>;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    admin = await issue(t, 'default', 'admin');
    viewer = await issue(t, 'default', 'viewer');
    otherAdmin = await issue(t, 'other', 'admin');
    audit = auditClient(t.grpc, bearer(admin.token));
  });
  afterAll(async () => t?.dispose());

  /** Records added by `act`, oldest first. */
  async function recordsOf(act: () => Promise<unknown>) {
    await t.server.audit.flush();
    const before = new Set((await audit.all()).map((r) => r.recordId));
    await act();
    await t.server.audit.flush();
    return (await audit.all()).filter((r) => !before.has(r.recordId)).reverse();
  }

  it('every state-changing call writes exactly one record, whatever its outcome; reads write none', async () => {
    let stateChanging = 0;
    for (const [service, method] of protectedMethods) {
      let outcome: Awaited<ReturnType<typeof callMethod>> = 'ok';
      const records = await recordsOf(async () => {
        outcome = await callMethod(t.grpc, service, method, bearer(admin.token));
      });
      const changes = STATE_CHANGING[service.name]?.includes(method.name) ?? false;
      if (!changes) {
        expect(records, `${method.name} is a read`).toEqual([]);
        continue;
      }
      stateChanging += 1;
      expect(records, method.name).toHaveLength(1);
      expect(records[0], method.name).toMatchObject({
        tenantId: 'default',
        subject: admin.subject,
        service: service.typeName,
        method: method.name,
        outcome: outcome === 'ok' ? 'OK' : outcomeName(outcome),
        clientAddress: '127.0.0.1',
      });
      expect(records[0]!.time).toBeDefined();
    }
    expect(stateChanging).toBe(Object.values(STATE_CHANGING).flat().length);
  });

  it('names the target: the tree, the backup, or the operation of a cancel', async () => {
    const cases: Array<[typeof BackupControlService | typeof TreeDataService, string, string]> = [
      [TreeDataService, 'PutEntry', 'orders'],
      [BackupControlService, 'DeleteBackup', 'b-1'],
      [BackupControlService, 'CancelBackupOperation', 'op-1'],
    ];
    for (const [service, name, target] of cases) {
      const method = service.methods.find((m) => m.name === name)!;
      const records = await recordsOf(() =>
        callMethod(t.grpc, service, method, bearer(admin.token)),
      );
      expect(records.map((r) => r.targetId)).toEqual([target]);
    }
  });

  it('every refusal writes one record, stored before the refusal is answered', async () => {
    const listBackups = BackupControlService.methods.find((m) => m.name === 'ListBackups')!;
    const deleteBackup = BackupControlService.methods.find((m) => m.name === 'DeleteBackup')!;
    const getPolicy = SchemaControlService.methods.find((m) => m.name === 'GetPolicy')!;
    const cases = [
      {
        call: () => callMethod(t.grpc, BackupControlService, listBackups, {}),
        expected: { subject: 'anonymous', tenantId: '', outcome: 'PERMISSION_DENIED' },
      },
      {
        call: () =>
          callMethod(t.grpc, BackupControlService, listBackups, {
            authorization: 'Bearer not a token',
            'store-active-tenant': 'default',
          }),
        // The tenant it named is only the caller's claim: the record names none.
        expected: { subject: '', tenantId: '', outcome: 'UNAUTHENTICATED' },
      },
      {
        call: () => callMethod(t.grpc, BackupControlService, deleteBackup, bearer(viewer.token)),
        expected: {
          subject: viewer.subject,
          tenantId: 'default',
          outcome: 'PERMISSION_DENIED',
          targetId: 'b-1',
        },
      },
      {
        call: () =>
          callMethod(t.grpc, SchemaControlService, getPolicy, {
            ...bearer(otherAdmin.token),
            'store-active-tenant': 'default',
          }),
        expected: {
          subject: otherAdmin.subject,
          tenantId: 'default',
          outcome: 'PERMISSION_DENIED',
        },
      },
    ];
    for (const { call, expected } of cases) {
      await t.server.audit.flush();
      const before = (await audit.all()).length;
      const outcome = await call();
      expect([Code.Unauthenticated, Code.PermissionDenied]).toContain(outcome);
      // No flush: the refusal was answered only after its record was written.
      const after = await audit.all();
      expect(after.length - before).toBe(1);
      expect(after[0]).toMatchObject({ ...expected, clientAddress: '127.0.0.1' });
      expect(after[0]!.detail).not.toBe('');
    }
  });

  it('takes the client address from x-forwarded-for when the peer is a trusted proxy (loopback by default)', async () => {
    const listBackups = BackupControlService.methods.find((m) => m.name === 'ListBackups')!;
    const records = await recordsOf(() =>
      callMethod(t.grpc, BackupControlService, listBackups, {
        // The left entry is the client's own claim; the proxy appended the address it saw.
        'x-forwarded-for': '198.51.100.1, 203.0.113.7',
      }),
    );
    expect(records.map((r) => r.clientAddress)).toEqual(['203.0.113.7']);
  });

  it('records calls on the HTTP/1.1 listener (gRPC-Web) the same way', async () => {
    const put = TreeDataService.methods.find((m) => m.name === 'PutEntry')!;
    const records = await recordsOf(async () => {
      expect(await callMethod(t.grpcWeb, TreeDataService, put, bearer(admin.token))).toBe('ok');
      expect(
        await callMethod(t.grpcWeb, TreeDataService, put, {
          ...bearer(viewer.token),
          'x-forwarded-for': '192.0.2.44',
        }),
      ).toBe(Code.PermissionDenied);
    });
    expect(records.map((r) => [r.method, r.outcome, r.subject, r.clientAddress])).toEqual([
      ['PutEntry', 'OK', admin.subject, '127.0.0.1'],
      ['PutEntry', 'PERMISSION_DENIED', viewer.subject, '192.0.2.44'],
    ]);
  });
});

describe.each(DIALECTS)('x-forwarded-for from an untrusted peer on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_TRUSTED_PROXIES: '10.0.0.0/8' });
  });
  afterAll(async () => t?.dispose());

  it('is ignored: the record names the socket peer', async () => {
    const admin = await issue(t, 'default', 'admin');
    const data = TreeDataService.methods.find((m) => m.name === 'PutEntry')!;
    expect(
      await callMethod(t.grpc, TreeDataService, data, {
        ...bearer(admin.token),
        'x-forwarded-for': '203.0.113.7',
      }),
    ).toBe('ok');
    await t.server.audit.flush();
    const records = await auditClient(t.grpc, bearer(admin.token)).all({ method: 'PutEntry' });
    expect(records.map((r) => [r.method, r.clientAddress])).toEqual([['PutEntry', '127.0.0.1']]);
  });
});
