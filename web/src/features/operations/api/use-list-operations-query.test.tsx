import { create } from '@bufbuild/protobuf';
import {
  BackupControlService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { defaultScheduler, focusManager, notifyManager } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../../../lib/polling';
import { operation } from '../../../testing/fixtures';
import { createTestApp, testSession, wrapperFor } from '../../../testing/render-app';
import { PAGE_SIZE } from '../utils/operation-filters';
import { useListOperationsQuery } from './use-list-operations-query';

const filters = { states: [], kinds: [], targetId: '', limit: PAGE_SIZE };

/** Both services' list RPCs over the in-memory router, counting every request. */
function setup(backupOps: StoreOperationStatus[], schemaOps: StoreOperationStatus[] = []) {
  const calls = { backup: 0, schema: 0 };
  const state = { backupOps, schemaOps };
  const app = createTestApp(
    (router) => {
      router.service(BackupControlService, {
        listBackupOperations: () => {
          calls.backup++;
          return create(StoreOperationPageSchema, { operations: state.backupOps });
        },
      });
      router.service(SchemaControlService, {
        listSchemaOperations: () => {
          calls.schema++;
          return create(StoreOperationPageSchema, { operations: state.schemaOps });
        },
      });
    },
    { session: testSession },
  );
  const hook = renderHook(() => useListOperationsQuery(filters), { wrapper: wrapperFor(app) });
  return { calls, state, hook };
}

/** Advances the fake clock and lets the answers reach React. */
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('useListOperationsQuery polling', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // TanStack notifies observers on a zero-delay timeout; a microtask keeps the fake clock exact.
    notifyManager.setScheduler(queueMicrotask);
  });
  afterEach(() => {
    notifyManager.setScheduler(defaultScheduler);
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('with 100 running operations, makes one list request per service per tick', async () => {
    const running = Array.from({ length: 100 }, () => operation());
    const { calls, hook } = setup(running, [
      operation({ kind: StoreOperationKind.MIGRATION, state: StoreOperationState.QUEUED }),
    ]);
    await tick(0);
    expect(hook.result.current.operations).toHaveLength(PAGE_SIZE);
    expect(calls).toEqual({ backup: 1, schema: 1 });

    await tick(FAST_POLL_MS);
    expect(calls).toEqual({ backup: 2, schema: 2 });
    await tick(FAST_POLL_MS * 3);
    expect(calls).toEqual({ backup: 5, schema: 5 });
  });

  it('polls fast while an operation runs and slowly once all have finished', async () => {
    const { calls, state, hook } = setup([operation()]);
    await tick(0);
    expect(hook.result.current.pollMs).toBe(FAST_POLL_MS);

    state.backupOps = [operation({ state: StoreOperationState.SUCCEEDED })];
    await tick(FAST_POLL_MS);
    expect(calls.backup).toBe(2);
    expect(hook.result.current.pollMs).toBe(SLOW_POLL_MS);

    // Finished: nothing for almost fifteen seconds, then one request.
    await tick(SLOW_POLL_MS - 100);
    expect(calls.backup).toBe(2);
    await tick(100);
    expect(calls.backup).toBe(3);
  });

  it('each service polls at its own pace: an idle service is not asked every second', async () => {
    const { calls } = setup([operation()], []);
    await tick(0);
    await tick(FAST_POLL_MS * 4);
    expect(calls).toEqual({ backup: 5, schema: 1 });
  });

  it('pauses while the tab is hidden (refetchIntervalInBackground false)', async () => {
    const { calls } = setup([operation()]);
    await tick(0);
    act(() => focusManager.setFocused(false));
    await tick(FAST_POLL_MS * 5);
    expect(calls.backup).toBe(1);
  });
});
