import {
  StoreBackupApiOperation as BackupOp,
  StoreSchemaApiOperation as SchemaOp,
} from '@store/contract';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../engines/identity/principal.js';
import type { AuthorizationContext, CallInfo } from './authorization-context.js';
import { allowAllAuthorizer, leastRoleFor, rbacAuthorizer } from './authorizers.js';
import { BACKUP_SERVICE } from '../backup/backup-access.js';
import { SCHEMA_SERVICE } from '../schema/schema-access.js';
import type { GuardedService } from './method-access.js';
import { createPermittedOperations } from './permitted-operations.js';

const logger = pino({ level: 'silent' });
const viewer: Principal = {
  subject: 'v',
  displayName: 'V',
  schemeId: 'bearer',
  anonymous: false,
  grants: new Map([['acme', ['viewer']]]),
};
const probe = (service: string): CallInfo => ({
  service,
  method: 'ProbeCapabilities',
  requestHeader: new Headers(),
  signal: new AbortController().signal,
  principal: viewer,
  requestedTenant: 'acme',
});
const backupProbe = probe('store.backup.v1.BackupControlService');
const schemaProbe = probe('store.schema.v1.SchemaControlService');

/** Every operation a service's methods present, but its Unknown. */
function everyOperation(service: GuardedService): number[] {
  const operations = Object.values(service.methods).map((access) => access.operation);
  return [...new Set(operations)]
    .filter((operation) => operation !== service.unknownOperation)
    .sort((a, b) => a - b);
}

describe('the operations a capability probe reports', () => {
  it('allow-all: every operation of the service, never Unknown', async () => {
    for (const [service, call] of [
      [BACKUP_SERVICE, backupProbe],
      [SCHEMA_SERVICE, schemaProbe],
    ] as const) {
      const reported = await createPermittedOperations(
        service,
        allowAllAuthorizer,
        call,
        logger,
      )('orders');
      expect(reported).toEqual(everyOperation(service));
      expect(reported.length).toBeGreaterThan(20);
      expect(reported).not.toContain(service.unknownOperation);
    }
  });

  it('RequireAuthorization false (no authorizer runs): every operation', async () => {
    const reported = await createPermittedOperations(
      SCHEMA_SERVICE,
      undefined,
      schemaProbe,
      logger,
    )('orders');
    expect(reported).toEqual(everyOperation(SCHEMA_SERVICE));
  });

  it('rbac: exactly the operations whose least role the caller holds in the tenant', async () => {
    const reported = await createPermittedOperations(
      BACKUP_SERVICE,
      rbacAuthorizer,
      backupProbe,
      logger,
    )('orders');
    const viewerOps = Object.entries(BACKUP_SERVICE.methods)
      .filter(([method, access]) => {
        if (access.operation === BackupOp.UNKNOWN) return false;
        return leastRoleFor(backupProbe.service, method, access.operation) === 'viewer';
      })
      .map(([, access]) => access.operation)
      .sort((a, b) => a - b);
    expect(reported).toEqual(viewerOps);
    expect(reported).toContain(BackupOp.LIST_BACKUPS);
    expect(reported).not.toContain(BackupOp.START_BACKUP);
  });

  it('each operation is asked as its own method would present it, with the tree as target where the method targets a tree', async () => {
    const seen = new Map<number, AuthorizationContext>();
    const recording = {
      name: 'recording',
      isAuthorized: (context: AuthorizationContext) => (seen.set(context.operation, context), true),
    };
    await createPermittedOperations(BACKUP_SERVICE, recording, backupProbe, logger)('orders');
    expect(seen.get(BackupOp.START_BACKUP)).toMatchObject({
      targetId: 'orders',
      call: { method: 'StartBackup', principal: viewer, requestedTenant: 'acme' },
    });
    expect(seen.get(BackupOp.SCHEDULE_BACKUP)?.targetId).toBe('orders');
    // The probe names no backup or operation: those targets are null.
    expect(seen.get(BackupOp.DELETE_BACKUP)).toMatchObject({
      targetId: null,
      call: { method: 'DeleteBackup' },
    });
    expect(seen.get(BackupOp.LIST_BACKUP_OPERATIONS)?.targetId).toBeNull();
    expect(seen.has(BackupOp.UNKNOWN)).toBe(false);
  });

  it('a host authorizer that refuses some operations, or throws for one, leaves them out', async () => {
    const picky = {
      name: 'picky',
      isAuthorized: ({ operation }: AuthorizationContext) => {
        if (operation === SchemaOp.REMEDIATE) throw new Error('policy store down');
        return operation !== SchemaOp.SET_POLICY;
      },
    };
    const reported = await createPermittedOperations(
      SCHEMA_SERVICE,
      picky,
      schemaProbe,
      logger,
    )('orders');
    const expected = everyOperation(SCHEMA_SERVICE).filter(
      (operation) => operation !== SchemaOp.SET_POLICY && operation !== SchemaOp.REMEDIATE,
    );
    expect(reported).toEqual(expected);
  });
});
