import { StoreBackupLifecycleApiOperation as Op } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const none = (): null => null;
const field = (name: string) => (request: unknown) => {
  const value = (request as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};
const scopeTree = (request: unknown) => {
  const scope = (request as Record<string, unknown> | undefined)?.scope as
    Record<string, unknown> | undefined;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};

/** BackupLifecycleService: a rule or retention call's target is its tree, a protection's its backup. */
const METHODS: Record<string, MethodAccess> = {
  GetRetentionRules: { operation: Op.GET_RETENTION_RULES, targetId: scopeTree },
  SetRetentionRules: { operation: Op.SET_RETENTION_RULES, targetId: scopeTree, changesState: true },
  PreviewRetention: { operation: Op.PREVIEW_RETENTION, targetId: scopeTree },
  StartRetentionApply: {
    operation: Op.START_RETENTION_APPLY,
    targetId: scopeTree,
    changesState: true,
  },
  GetRetentionApplyResult: { operation: Op.GET_RETENTION_APPLY_RESULT, targetId: none },
  ProtectBackup: { operation: Op.PROTECT_BACKUP, targetId: field('backupId'), changesState: true },
  UnprotectBackup: {
    operation: Op.UNPROTECT_BACKUP,
    targetId: field('backupId'),
    changesState: true,
  },
  ListBackupProtections: { operation: Op.LIST_BACKUP_PROTECTIONS, targetId: none },
  GetLifecycleOperationStatus: { operation: Op.GET_LIFECYCLE_OPERATION_STATUS, targetId: none },
  ListLifecycleOperations: { operation: Op.LIST_LIFECYCLE_OPERATIONS, targetId: none },
  CancelLifecycleOperation: {
    operation: Op.CANCEL_LIFECYCLE_OPERATION,
    targetId: none,
    changesState: true,
  },
};

/** The service's full name as its prefix: the package holds only this service. */
export const BACKUP_LIFECYCLE_SERVICE: GuardedService = {
  prefix: 'store.lifecycle.v1.BackupLifecycleService',
  methods: METHODS,
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles: viewers read rules and preview (a preview changes nothing); operators protect and
 * apply (deleting what a preview listed, as they start captures); admins lift protections and
 * change rules, which decide what is deleted from then on (as DeleteBackup needs admin).
 */
export const BACKUP_LIFECYCLE_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.GET_RETENTION_RULES, 'viewer'],
  [Op.PREVIEW_RETENTION, 'viewer'],
  [Op.GET_RETENTION_APPLY_RESULT, 'viewer'],
  [Op.LIST_BACKUP_PROTECTIONS, 'viewer'],
  [Op.GET_LIFECYCLE_OPERATION_STATUS, 'viewer'],
  [Op.LIST_LIFECYCLE_OPERATIONS, 'viewer'],
  [Op.START_RETENTION_APPLY, 'operator'],
  [Op.PROTECT_BACKUP, 'operator'],
  [Op.CANCEL_LIFECYCLE_OPERATION, 'operator'],
  [Op.UNPROTECT_BACKUP, 'admin'],
  [Op.SET_RETENTION_RULES, 'admin'],
]);
