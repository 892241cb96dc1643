import { StoreDataApiOperation as DataOp } from '@store/contract';
import { none, treeId, type GuardedService, type MethodAccess } from '../auth/method-access.js';
import type { Role } from '../../engines/identity/principal.js';

const DATA: Record<string, MethodAccess> = {
  ListTrees: { operation: DataOp.LIST_TREES, targetId: none },
  PutEntry: { operation: DataOp.PUT_ENTRY, targetId: treeId, changesState: true },
  PutEntries: { operation: DataOp.PUT_ENTRIES, targetId: treeId, changesState: true },
  GetEntry: { operation: DataOp.GET_ENTRY, targetId: treeId },
  DeleteEntry: { operation: DataOp.DELETE_ENTRY, targetId: treeId, changesState: true },
  ListEntries: { operation: DataOp.LIST_ENTRIES, targetId: treeId },
};

export const DATA_SERVICE: GuardedService = {
  prefix: 'store.data.',
  methods: DATA,
  unknownOperation: DataOp.UNSPECIFIED,
  exempt: [],
};

/** DESIGN.md §4: the least role of each operation under rbac (auth/authorizers.ts). */
export const DATA_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
    [DataOp.LIST_TREES, 'viewer'],
    [DataOp.GET_ENTRY, 'viewer'],
    [DataOp.LIST_ENTRIES, 'viewer'],
    [DataOp.PUT_ENTRY, 'operator'],
    [DataOp.PUT_ENTRIES, 'operator'],
    [DataOp.DELETE_ENTRY, 'operator'],
]);
