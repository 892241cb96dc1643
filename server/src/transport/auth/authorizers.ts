import {
  StoreBackupApiOperation as BackupOp,
  StoreDataApiOperation as DataOp,
  StoreIdentityApiOperation as IdentityOp,
  StoreSchemaApiOperation as SchemaOp,
} from '@store/contract';
import { roleCovers, type Role } from '../../engines/identity/principal.js';
import { SCHEMA_INSIGHT_LEAST_ROLE } from '../schema-insight/schema-insight-access.js';
import type { AuthorizationContext } from './authorization-context.js';
import { BACKUP_INSIGHT_LEAST_ROLE, BACKUP_INSIGHT_SERVICE } from './backup-insight-access.js';
import {
  BACKUP_LIFECYCLE_LEAST_ROLE,
  BACKUP_LIFECYCLE_SERVICE,
} from '../lifecycle/backup-lifecycle-access.js';

/**
 * Decides whether a protected call may proceed (spec 000/001, Rules 3–5). True allows; false is
 * PermissionDenied, for an anonymous caller too; a throw is PermissionDenied (fail closed).
 */
export interface Authorizer {
  readonly name: string;
  isAuthorized(context: AuthorizationContext): boolean | Promise<boolean>;
  /**
   * Refuses every call whoever makes it, so the interceptor answers PermissionDenied before it
   * reads the credential or the tenant header: the specs' "every protected call gets
   * PermissionDenied" holds for a bad credential too, and the answer tells nobody whether a
   * token is valid.
   */
  readonly refusesEveryCall?: boolean;
}

/** The default: refuses every protected call, with or without a credential, so an unconfigured host fails closed. */
export const denyAllAuthorizer: Authorizer = {
  name: 'deny-all',
  refusesEveryCall: true,
  isAuthorized: () => false,
};

/** Opt-in, for trusted networks behind a separate authentication boundary. */
export const allowAllAuthorizer: Authorizer = {
  name: 'allow-all',
  isAuthorized: () => true,
};

type Family =
  | 'backup'
  | 'schema'
  | 'data'
  | 'identity'
  | 'schema-insight'
  | 'backupInsight'
  | 'backupLifecycle';

/** DESIGN.md §4, least role per operation. A missing entry is refused (Unknown included). */
export const LEAST_ROLE: Record<Family, ReadonlyMap<number, Role>> = {
  backup: new Map<number, Role>([
    [BackupOp.LIST_BACKUPS, 'viewer'],
    [BackupOp.STREAM_BACKUPS, 'viewer'],
    [BackupOp.DESCRIBE_BACKUP, 'viewer'],
    [BackupOp.GET_SCOPE_STATUS, 'viewer'],
    [BackupOp.IS_HEALTH_MONITORING_AVAILABLE, 'viewer'],
    [BackupOp.GET_BACKUP_HEALTH, 'viewer'],
    [BackupOp.GET_BACKUP_OPERATION_STATUS, 'viewer'],
    [BackupOp.LIST_BACKUP_OPERATIONS, 'viewer'],
    // ProbeCapabilities is presented as Unknown; rbac allows Unknown only for it (see below).
    [BackupOp.CREATE_BACKUP, 'operator'],
    [BackupOp.CREATE_INCREMENTAL_BACKUP, 'operator'],
    [BackupOp.CREATE_BACKUP_SET, 'operator'],
    [BackupOp.START_BACKUP, 'operator'],
    [BackupOp.START_INCREMENTAL_BACKUP, 'operator'],
    [BackupOp.START_BACKUP_SET, 'operator'],
    [BackupOp.SCHEDULE_BACKUP, 'operator'],
    [BackupOp.CANCEL_SCHEDULE, 'operator'],
    [BackupOp.CHECK_BACKUP_HEALTH, 'operator'],
    [BackupOp.START_BACKUP_HEALTH_CHECK, 'operator'],
    [BackupOp.CONFIGURE_BACKUP_HEALTH, 'operator'],
    [BackupOp.EXPORT_ARTIFACT, 'operator'],
    [BackupOp.START_CATALOG_REBUILD, 'operator'],
    [BackupOp.CANCEL_BACKUP_OPERATION, 'operator'],
    [BackupOp.DELETE_BACKUP, 'admin'],
    [BackupOp.RESTORE_BACKUP, 'admin'],
    [BackupOp.START_RESTORE, 'admin'],
    [BackupOp.START_COLD_RESTORE, 'admin'],
    [BackupOp.REVERT_RESTORE, 'admin'],
    [BackupOp.START_CATALOG_SCRUB, 'admin'],
  ]),
  schema: new Map<number, Role>([
    [SchemaOp.GET_POLICY, 'viewer'],
    [SchemaOp.STREAM_DEAD_LETTERS, 'viewer'],
    [SchemaOp.COUNT_DEAD_LETTERS, 'viewer'],
    [SchemaOp.GET_VERSION_CONFIG, 'viewer'],
    [SchemaOp.GET_REMEDIATION_STATUS, 'viewer'],
    [SchemaOp.GET_COMPLIANCE_SCAN_STATUS, 'viewer'],
    [SchemaOp.LIST_COMPLIANCE_SCANS, 'viewer'],
    [SchemaOp.GET_SCHEMA_OPERATION_STATUS, 'viewer'],
    [SchemaOp.LIST_SCHEMA_OPERATIONS, 'viewer'],
    [SchemaOp.PROBE_CAPABILITIES, 'viewer'],
    [SchemaOp.SCAN_COMPLIANCE, 'operator'],
    [SchemaOp.START_COMPLIANCE_SCAN, 'operator'],
    [SchemaOp.CANCEL_COMPLIANCE_SCAN, 'operator'],
    [SchemaOp.CANCEL_SCHEMA_OPERATION, 'operator'],
    [SchemaOp.SET_POLICY, 'admin'],
    [SchemaOp.CLEAR_POLICY, 'admin'],
    [SchemaOp.SET_VERSION_CONFIG, 'admin'],
    [SchemaOp.ADVANCE_TARGET_VERSION, 'admin'],
    [SchemaOp.CLEAR_VERSION_CONFIG, 'admin'],
    [SchemaOp.ADVANCE_AND_MIGRATE, 'admin'],
    [SchemaOp.MIGRATE_TO_TARGET_VERSION, 'admin'],
    [SchemaOp.START_MIGRATION, 'admin'],
    [SchemaOp.START_ADVANCE_AND_MIGRATE, 'admin'],
    [SchemaOp.REMEDIATE, 'admin'],
    [SchemaOp.START_REMEDIATION, 'admin'],
  ]),
  data: new Map<number, Role>([
    [DataOp.LIST_TREES, 'viewer'],
    [DataOp.GET_ENTRY, 'viewer'],
    [DataOp.LIST_ENTRIES, 'viewer'],
    [DataOp.PUT_ENTRY, 'operator'],
    [DataOp.PUT_ENTRIES, 'operator'],
    [DataOp.DELETE_ENTRY, 'operator'],
  ]),
  identity: new Map<number, Role>([
    [IdentityOp.WHO_AM_I, 'viewer'],
    [IdentityOp.LIST_AUDIT_RECORDS, 'admin'],
    [IdentityOp.RESOLVE_SUBJECTS, 'viewer'],
  ]),
  'schema-insight': SCHEMA_INSIGHT_LEAST_ROLE,
  backupInsight: BACKUP_INSIGHT_LEAST_ROLE,
  backupLifecycle: BACKUP_LIFECYCLE_LEAST_ROLE,
};

function familyOf(service: string): Family | undefined {
  if (service.startsWith('store.backup.')) return 'backup';
  if (service.startsWith('store.schema.')) return 'schema';
  if (service.startsWith('store.data.')) return 'data';
  if (service.startsWith('store.identity.')) return 'identity';
  if (service.startsWith('store.insight.v1.SchemaInsightService')) return 'schema-insight';
  if (service.startsWith(BACKUP_INSIGHT_SERVICE.prefix)) return 'backupInsight';
  if (service.startsWith(BACKUP_LIFECYCLE_SERVICE.prefix)) return 'backupLifecycle';
  return undefined;
}

/** The least role an operation of a service needs under rbac, or undefined when rbac refuses it. */
export function leastRoleFor(service: string, method: string, operation: number): Role | undefined {
  const family = familyOf(service);
  if (!family) return undefined;
  // rbac allows Unknown only for the backup service's ProbeCapabilities (DESIGN.md §4).
  if (family === 'backup' && operation === BackupOp.UNKNOWN) {
    return method === 'ProbeCapabilities' ? 'viewer' : undefined;
  }
  if (family === 'schema' && operation === SchemaOp.UNKNOWN) return undefined;
  return LEAST_ROLE[family].get(operation);
}

/**
 * Role-based: the caller needs the operation's least role in the tenant the call will act in
 * (the active-tenant header, else the caller's only tenant). When no single tenant is named the
 * decision is left to the access gate, which answers InvalidArgument. An anonymous caller holds
 * no role, so it is refused like any caller lacking one (PermissionDenied).
 */
export const rbacAuthorizer: Authorizer = {
  name: 'rbac',
  isAuthorized({ call, operation }) {
    const principal = call.principal;
    if (!principal || principal.anonymous) return false;
    const needed = leastRoleFor(call.service, call.method, operation);
    if (!needed) return false;
    const tenant = call.requestedTenant;
    if (tenant !== undefined) return roleCovers(principal.grants.get(tenant) ?? [], needed);
    return [...principal.grants.values()].some((roles) => roleCovers(roles, needed));
  },
};

/** The authorizer a STORE_AUTHORIZER name selects. */
export function authorizerNamed(name: 'rbac' | 'allow-all' | 'deny-all'): Authorizer {
  return name === 'rbac'
    ? rbacAuthorizer
    : name === 'allow-all'
      ? allowAllAuthorizer
      : denyAllAuthorizer;
}
