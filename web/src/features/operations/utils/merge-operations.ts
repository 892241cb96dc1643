import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { StoreOperationStatus } from '@store/contract';

/** A newest-first page of any service's operations (the four list RPCs, as the console reads them). */
export interface OperationPageLike {
  operations: readonly StoreOperationStatus[];
  nextPageToken: string;
}

export interface MergedOperations {
  /** Newest first, at most `limit`. */
  operations: StoreOperationStatus[];
  /** More exist beyond what is shown in either service. */
  hasMore: boolean;
}

/**
 * Merges the newest `limit` operations of each service into the newest `limit` overall. Each
 * page is newest first, so the top `limit` of the union is exact: anything older that a service
 * did not send cannot outrank them.
 */
export function mergeOperationPages(
  pages: readonly (OperationPageLike | undefined)[],
  limit: number,
): MergedOperations {
  const all = pages.flatMap((page) => page?.operations ?? []);
  all.sort(newestFirst);
  return {
    operations: all.slice(0, limit),
    hasMore: all.length > limit || pages.some((page) => !!page?.nextPageToken),
  };
}

export function newestFirst(a: StoreOperationStatus, b: StoreOperationStatus): number {
  return (
    compareTimestamps(b.createdAt, a.createdAt) ||
    (a.operationId < b.operationId ? 1 : a.operationId > b.operationId ? -1 : 0)
  );
}

function compareTimestamps(a: Timestamp | undefined, b: Timestamp | undefined): number {
  const as = a?.seconds ?? 0n;
  const bs = b?.seconds ?? 0n;
  if (as !== bs) return as < bs ? -1 : 1;
  return (a?.nanos ?? 0) - (b?.nanos ?? 0);
}
