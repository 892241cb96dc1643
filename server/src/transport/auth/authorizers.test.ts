import {
  StoreBackupApiOperation as BackupOp,
  StoreDataApiOperation as DataOp,
  StoreSchemaApiOperation as SchemaOp,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type Principal, type Role } from '../../engines/identity/principal.js';
import { createAuthorizationContext, type CallInfo } from './authorization-context.js';
import {
  allowAllAuthorizer,
  denyAllAuthorizer,
  leastRoleFor,
  rbacAuthorizer,
} from './authorizers.js';

function caller(grants: Record<string, Role[]>): Principal {
  return {
    subject: 'u',
    displayName: 'U',
    schemeId: 'bearer',
    anonymous: false,
    grants: new Map(Object.entries(grants)),
  };
}

function call(
  service: string,
  method: string,
  principal: Principal,
  requestedTenant?: string,
): CallInfo {
  return {
    service,
    method,
    requestHeader: new Headers(),
    signal: new AbortController().signal,
    principal,
    ...(requestedTenant !== undefined && { requestedTenant }),
  };
}

const backup = 'store.backup.v1.BackupControlService';
const schema = 'store.schema.v1.SchemaControlService';

describe('authorization context', () => {
  it('when the call is missing, it throws TypeError', () => {
    expect(() => createAuthorizationContext(null as never, 0, null)).toThrow(TypeError);
  });
});

describe('deny-all and allow-all', () => {
  it('deny-all refuses every call, anonymous or not, and says so before any credential is read', () => {
    expect(denyAllAuthorizer.refusesEveryCall).toBe(true);
    expect(allowAllAuthorizer.refusesEveryCall).toBeUndefined();
    for (const principal of [ANONYMOUS, caller({ t: ['admin'] })]) {
      const context = createAuthorizationContext(
        call(backup, 'ListBackups', principal),
        BackupOp.LIST_BACKUPS,
        null,
      );
      expect(denyAllAuthorizer.isAuthorized(context)).toBe(false);
    }
  });

  it('allow-all allows every call', () => {
    const context = createAuthorizationContext(
      call(backup, 'DeleteBackup', ANONYMOUS),
      BackupOp.DELETE_BACKUP,
      'b',
    );
    expect(allowAllAuthorizer.isAuthorized(context)).toBe(true);
  });
});

describe('rbac (DESIGN.md §4 least roles)', () => {
  const cases: Array<[string, string, number, Role]> = [
    [backup, 'ListBackups', BackupOp.LIST_BACKUPS, 'viewer'],
    [backup, 'StartBackup', BackupOp.START_BACKUP, 'operator'],
    [backup, 'CancelSchedule', BackupOp.CANCEL_SCHEDULE, 'operator'],
    [backup, 'ExportArtifact', BackupOp.EXPORT_ARTIFACT, 'operator'],
    [backup, 'StartRestore', BackupOp.START_RESTORE, 'admin'],
    [backup, 'StartCatalogScrub', BackupOp.START_CATALOG_SCRUB, 'admin'],
    [backup, 'ProbeCapabilities', BackupOp.UNKNOWN, 'viewer'],
    [schema, 'GetPolicy', SchemaOp.GET_POLICY, 'viewer'],
    [schema, 'StartComplianceScan', SchemaOp.START_COMPLIANCE_SCAN, 'operator'],
    [schema, 'SetPolicy', SchemaOp.SET_POLICY, 'admin'],
    ['store.data.v1.TreeDataService', 'PutEntry', DataOp.PUT_ENTRY, 'operator'],
    ['store.data.v1.TreeDataService', 'PutEntries', DataOp.PUT_ENTRIES, 'operator'],
  ];

  it.each(cases)('%s/%s needs %s', (service, method, operation, least) => {
    expect(leastRoleFor(service, method, operation)).toBe(least);
    const order: Role[] = ['viewer', 'operator', 'admin'];
    for (const role of order) {
      const context = createAuthorizationContext(
        call(service, method, caller({ acme: [role] }), 'acme'),
        operation,
        null,
      );
      const expected = order.indexOf(role) >= order.indexOf(least);
      expect(rbacAuthorizer.isAuthorized(context), `${role}`).toBe(expected);
    }
  });

  it('refuses Unknown except for the backup capability probe', () => {
    const admin = caller({ acme: ['admin'] });
    const unknownBackup = createAuthorizationContext(
      call(backup, 'Mystery', admin, 'acme'),
      BackupOp.UNKNOWN,
      null,
    );
    const unknownSchema = createAuthorizationContext(
      call(schema, 'Mystery', admin, 'acme'),
      SchemaOp.UNKNOWN,
      null,
    );
    expect(rbacAuthorizer.isAuthorized(unknownBackup)).toBe(false);
    expect(rbacAuthorizer.isAuthorized(unknownSchema)).toBe(false);
  });

  it('refuses an anonymous caller like any caller without the role, not before reading the credential', () => {
    const context = createAuthorizationContext(
      call(backup, 'ListBackups', ANONYMOUS),
      BackupOp.LIST_BACKUPS,
      null,
    );
    expect(rbacAuthorizer.isAuthorized(context)).toBe(false);
    // Only deny-all decides without the caller; rbac needs the verified credential first.
    expect(rbacAuthorizer.refusesEveryCall).toBeUndefined();
  });

  it('checks the role in the requested tenant, not in another one', () => {
    const principal = caller({ acme: ['admin'], other: ['viewer'] });
    const inOther = createAuthorizationContext(
      call(backup, 'StartRestore', principal, 'other'),
      BackupOp.START_RESTORE,
      'b',
    );
    const inAcme = createAuthorizationContext(
      call(backup, 'StartRestore', principal, 'acme'),
      BackupOp.START_RESTORE,
      'b',
    );
    expect(rbacAuthorizer.isAuthorized(inOther)).toBe(false);
    expect(rbacAuthorizer.isAuthorized(inAcme)).toBe(true);
  });
});
