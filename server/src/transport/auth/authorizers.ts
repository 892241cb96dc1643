import {
  StoreBackupApiOperation as BackupOp,
  StoreSchemaApiOperation as SchemaOp,
} from '@store/contract';
import { BACKUP_LEAST_ROLE } from '../backup/backup-access.js';
import { DATA_LEAST_ROLE } from '../data/data-access.js';
import { IDENTITY_LEAST_ROLE } from '../identity/identity-access.js';
import { SCHEMA_LEAST_ROLE } from '../schema/schema-access.js';
import { roleCovers, type Role } from '../../engines/identity/principal.js';
import { SCHEMA_INSIGHT_LEAST_ROLE } from '../schema-insight/schema-insight-access.js';
import type { AuthorizationContext } from './authorization-context.js';
import {
  BACKUP_INSIGHT_LEAST_ROLE,
  BACKUP_INSIGHT_SERVICE,
} from '../backup-insight/backup-insight-access.js';
import {
  BACKUP_LIFECYCLE_LEAST_ROLE,
  BACKUP_LIFECYCLE_SERVICE,
} from '../lifecycle/backup-lifecycle-access.js';
import {
  NOTIFICATIONS_LEAST_ROLE,
  NOTIFICATIONS_SERVICE,
} from '../notifications/notifications-access.js';
import { RESTORE_DRILL_LEAST_ROLE, RESTORE_DRILL_SERVICE } from '../drills/restore-drill-access.js';
import {
  RESTORE_DRILL_PLAN_LEAST_ROLE,
  RESTORE_DRILL_PLAN_SERVICE,
} from '../drills/drill-plan-access.js';
import { DRILL_PROOF_LEAST_ROLE, DRILL_PROOF_SERVICE } from '../drills/drill-proof-access.js';

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
  | 'backupLifecycle'
  | 'notifications'
  | 'restoreDrill'
  | 'restoreDrillPlan'
  | 'drillProof';

/**
 * DESIGN.md §4, least role per operation, from each service's access table. A missing entry is
 * refused (Unknown included).
 */
export const LEAST_ROLE: Record<Family, ReadonlyMap<number, Role>> = {
  backup: BACKUP_LEAST_ROLE,
  schema: SCHEMA_LEAST_ROLE,
  data: DATA_LEAST_ROLE,
  identity: IDENTITY_LEAST_ROLE,
  'schema-insight': SCHEMA_INSIGHT_LEAST_ROLE,
  backupInsight: BACKUP_INSIGHT_LEAST_ROLE,
  backupLifecycle: BACKUP_LIFECYCLE_LEAST_ROLE,
  notifications: NOTIFICATIONS_LEAST_ROLE,
  restoreDrill: RESTORE_DRILL_LEAST_ROLE,
  restoreDrillPlan: RESTORE_DRILL_PLAN_LEAST_ROLE,
  drillProof: DRILL_PROOF_LEAST_ROLE,
};

function familyOf(service: string): Family | undefined {
  if (service.startsWith('store.backup.')) return 'backup';
  if (service.startsWith('store.schema.')) return 'schema';
  if (service.startsWith('store.data.')) return 'data';
  if (service.startsWith('store.identity.')) return 'identity';
  if (service.startsWith('store.insight.v1.SchemaInsightService')) return 'schema-insight';
  if (service.startsWith(BACKUP_INSIGHT_SERVICE.prefix)) return 'backupInsight';
  if (service.startsWith(BACKUP_LIFECYCLE_SERVICE.prefix)) return 'backupLifecycle';
  if (service.startsWith(NOTIFICATIONS_SERVICE.prefix)) return 'notifications';
  if (service.startsWith(RESTORE_DRILL_SERVICE.prefix)) return 'restoreDrill';
  if (service.startsWith(RESTORE_DRILL_PLAN_SERVICE.prefix)) return 'restoreDrillPlan';
  if (service.startsWith(DRILL_PROOF_SERVICE.prefix)) return 'drillProof';
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
