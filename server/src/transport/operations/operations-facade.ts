import type { OperationView } from './operation-mapping.js';

/** What the bindings need of the tracked-operations runner (the "operations facade"). */
export interface OperationsFacade {
  get(tenant: string, id: string, kinds?: readonly string[]): Promise<OperationView | undefined>;
  list(
    tenant: string,
    filter: {
      pageSize: number;
      pageToken: string;
      kinds: readonly string[];
      states: readonly string[];
      targetId?: string | undefined;
      createdAfter?: number | undefined;
    },
  ): Promise<{ operations: OperationView[]; nextPageToken: string }>;
  /** `cancelledBy` is the caller's subject, recorded for "Cancelled by <who>". */
  cancel(
    tenant: string,
    id: string,
    kinds: readonly string[] | undefined,
    cancelledBy: string,
  ): Promise<OperationView | undefined>;
}
