import { StoreRestoreDrillApiOperation as Op } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const none = (): null => null;
const startTarget = (request: unknown) => {
  const target = (request as Record<string, unknown> | undefined)?.target as
    { case?: string; value?: unknown } | undefined;
  return typeof target?.value === 'string' ? target.value : null;
};
const scopeTree = (request: unknown) => {
  const scope = (request as Record<string, unknown> | undefined)?.scope as
    Record<string, unknown> | undefined;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};

/** RestoreDrillService: a start's target is its backup or set, a history's its tree. */
const METHODS: Record<string, MethodAccess> = {
  StartRestoreDrill: {
    operation: Op.START_RESTORE_DRILL,
    targetId: startTarget,
    changesState: true,
  },
  GetRestoreDrillResult: { operation: Op.GET_RESTORE_DRILL_RESULT, targetId: none },
  ListRestoreDrills: { operation: Op.LIST_RESTORE_DRILLS, targetId: scopeTree },
  GetRestoreDrillStatus: { operation: Op.GET_RESTORE_DRILL_STATUS, targetId: none },
  CancelRestoreDrill: {
    operation: Op.CANCEL_RESTORE_DRILL,
    targetId: none,
    changesState: true,
  },
};

/** The service's full name as its prefix: the package holds only this service (so far). */
export const RESTORE_DRILL_SERVICE: GuardedService = {
  prefix: 'store.drills.v1.RestoreDrillService',
  methods: METHODS,
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles (issue 36): a viewer may read drill results and history but not start a drill,
 * which restores a whole backup's worth of entries into the database (operator, as a restore);
 * cancelling one is the operator's too.
 */
export const RESTORE_DRILL_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.GET_RESTORE_DRILL_RESULT, 'viewer'],
  [Op.LIST_RESTORE_DRILLS, 'viewer'],
  [Op.GET_RESTORE_DRILL_STATUS, 'viewer'],
  [Op.START_RESTORE_DRILL, 'operator'],
  [Op.CANCEL_RESTORE_DRILL, 'operator'],
]);
