import { StoreDrillProofApiOperation as Op } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const none = (): null => null;

/** DrillProofService: tenant-wide reads, no single target. */
const METHODS: Record<string, MethodAccess> = {
  ListTreeProofs: { operation: Op.LIST_TREE_PROOFS, targetId: none },
  GetBackupProofs: { operation: Op.GET_BACKUP_PROOFS, targetId: none },
  ListRestoreDrillOperations: { operation: Op.LIST_RESTORE_DRILL_OPERATIONS, targetId: none },
};

export const DRILL_PROOF_SERVICE: GuardedService = {
  prefix: 'store.drills.v1.DrillProofService',
  methods: METHODS,
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/** Least roles (issue 36 bullet 5): proof is read by whoever reads drill results (viewer). */
export const DRILL_PROOF_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.LIST_TREE_PROOFS, 'viewer'],
  [Op.GET_BACKUP_PROOFS, 'viewer'],
  [Op.LIST_RESTORE_DRILL_OPERATIONS, 'viewer'],
]);
