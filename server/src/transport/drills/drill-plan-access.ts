import { StoreRestoreDrillPlanApiOperation as Op } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

/** A plan call's target is its scope's tree (a listing of every scope has none). */
const scopeTree = (request: unknown) => {
  const scope = (request as Record<string, unknown> | undefined)?.scope as
    Record<string, unknown> | undefined;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};

const METHODS: Record<string, MethodAccess> = {
  SetRestoreDrillPlan: {
    operation: Op.SET_RESTORE_DRILL_PLAN,
    targetId: scopeTree,
    changesState: true,
  },
  GetRestoreDrillPlan: { operation: Op.GET_RESTORE_DRILL_PLAN, targetId: scopeTree },
  ListRestoreDrillPlans: { operation: Op.LIST_RESTORE_DRILL_PLANS, targetId: scopeTree },
  DeleteRestoreDrillPlan: {
    operation: Op.DELETE_RESTORE_DRILL_PLAN,
    targetId: scopeTree,
    changesState: true,
  },
  RunRestoreDrillPlanNow: {
    operation: Op.RUN_RESTORE_DRILL_PLAN_NOW,
    targetId: scopeTree,
    changesState: true,
  },
};

export const RESTORE_DRILL_PLAN_SERVICE: GuardedService = {
  prefix: 'store.drills.v1.RestoreDrillPlanService',
  methods: METHODS,
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles (issue 36 bullet 3): a viewer reads plans; setting, deleting and running one is
 * the operator's, as starting a drill is (RESTORE_DRILL_LEAST_ROLE).
 */
export const RESTORE_DRILL_PLAN_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.GET_RESTORE_DRILL_PLAN, 'viewer'],
  [Op.LIST_RESTORE_DRILL_PLANS, 'viewer'],
  [Op.SET_RESTORE_DRILL_PLAN, 'operator'],
  [Op.DELETE_RESTORE_DRILL_PLAN, 'operator'],
  [Op.RUN_RESTORE_DRILL_PLAN_NOW, 'operator'],
]);
