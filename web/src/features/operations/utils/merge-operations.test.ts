import { create } from '@bufbuild/protobuf';
import { StoreOperationKind, StoreOperationPageSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { operation } from '../../../testing/fixtures';
import { mergeOperationPages } from './merge-operations';

const page = (ops: ReturnType<typeof operation>[], nextPageToken = '') =>
  create(StoreOperationPageSchema, { operations: ops, nextPageToken });

describe('mergeOperationPages', () => {
  it('merges both services newest first', () => {
    const [a, b, c, d] = [operation(), operation(), operation(), operation()];
    const schemaOps = [d, b].map((o) => ({ ...o, kind: StoreOperationKind.MIGRATION }));
    const merged = mergeOperationPages([page([c, a]), page(schemaOps)], 50);
    expect(merged.operations.map((o) => o.operationId)).toEqual([
      d!.operationId,
      c!.operationId,
      b!.operationId,
      a!.operationId,
    ]);
    expect(merged.hasMore).toBe(false);
  });

  it('shows at most the limit and says there is more', () => {
    const ops = Array.from({ length: 4 }, () => operation()).reverse();
    const merged = mergeOperationPages([page(ops.slice(0, 2)), page(ops.slice(2))], 3);
    expect(merged.operations).toHaveLength(3);
    expect(merged.hasMore).toBe(true);
  });

  it('says there is more when a service has another page', () => {
    expect(mergeOperationPages([page([operation()], 'next'), undefined], 50).hasMore).toBe(true);
  });
});
