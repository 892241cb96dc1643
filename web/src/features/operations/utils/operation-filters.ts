import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  StoreOperationKind,
  StoreOperationState,
  type StoreOperationListRequestSchema,
} from '@store/contract';
import {
  familyOf,
  kindFromName,
  stateFromName,
  type OperationFamily,
} from '../../../lib/operations/operation-kinds';

/** The list's filters; they live in the URL so a link reproduces the view. */
export interface OperationFilters {
  states: StoreOperationState[];
  kinds: StoreOperationKind[];
  targetId: string;
  /** How many rows to show; "Load more" raises it by one page. */
  limit: number;
}

export const PAGE_SIZE = 50;
/** The server's largest page (DESIGN.md §3); past it, narrow the filters. */
export const MAX_LIMIT = 1_000;

/** ?state=RUNNING&state=QUEUED&kind=BACKUP&target=orders&limit=100 → filters. */
export function filtersFromSearch(params: URLSearchParams): OperationFilters {
  const limit = Number.parseInt(params.get('limit') ?? '', 10);
  return {
    states: params
      .getAll('state')
      .map(stateFromName)
      .filter((s) => s !== undefined),
    kinds: params
      .getAll('kind')
      .map(kindFromName)
      .filter((k) => k !== undefined),
    targetId: params.get('target')?.trim() ?? '',
    limit:
      Number.isFinite(limit) && limit > 0
        ? Math.min(MAX_LIMIT, Math.ceil(limit / PAGE_SIZE) * PAGE_SIZE)
        : PAGE_SIZE,
  };
}

/** The inverse of filtersFromSearch; defaults are left out so links stay short. */
export function searchFromFilters(filters: OperationFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const state of filters.states) params.append('state', StoreOperationState[state]);
  for (const kind of filters.kinds) params.append('kind', StoreOperationKind[kind]);
  if (filters.targetId) params.set('target', filters.targetId);
  if (filters.limit !== PAGE_SIZE) params.set('limit', String(filters.limit));
  return params;
}

/** The list request both services get; page_size grows with "Load more". */
export function listRequestOf(
  filters: OperationFilters,
): MessageInitShape<typeof StoreOperationListRequestSchema> {
  return {
    pageSize: filters.limit,
    states: filters.states,
    kinds: filters.kinds,
    ...(filters.targetId && { targetId: filters.targetId }),
  };
}

/** Which services can hold matching operations: a kind filter may rule one out. */
export function familiesOf(filters: OperationFilters): Record<OperationFamily, boolean> {
  const families = new Set(filters.kinds.map(familyOf));
  const has = (family: OperationFamily) => filters.kinds.length === 0 || families.has(family);
  return {
    backup: has('backup'),
    schema: has('schema'),
    backupInsight: has('backupInsight'),
    schemaInsight: has('schemaInsight'),
    lifecycle: has('lifecycle'),
    drill: has('drill'),
  };
}
