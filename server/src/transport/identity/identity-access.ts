import { StoreIdentityApiOperation as IdentityOp } from '@store/contract';
import { none, type GuardedService, type MethodAccess } from '../auth/method-access.js';
import type { Role } from '../../engines/identity/principal.js';

const IDENTITY: Record<string, MethodAccess> = {
  WhoAmI: { operation: IdentityOp.WHO_AM_I, targetId: none },
  ListAuditRecords: { operation: IdentityOp.LIST_AUDIT_RECORDS, targetId: none },
  ResolveSubjects: { operation: IdentityOp.RESOLVE_SUBJECTS, targetId: none },
};

export const IDENTITY_SERVICE: GuardedService = {
  prefix: 'store.identity.',
  methods: IDENTITY,
  unknownOperation: IdentityOp.UNSPECIFIED,
  exempt: [],
  tenantOptional: true,
};

/** DESIGN.md §4: the least role of each operation under rbac (auth/authorizers.ts). */
export const IDENTITY_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [IdentityOp.WHO_AM_I, 'viewer'],
  [IdentityOp.LIST_AUDIT_RECORDS, 'admin'],
  [IdentityOp.RESOLVE_SUBJECTS, 'viewer'],
]);
