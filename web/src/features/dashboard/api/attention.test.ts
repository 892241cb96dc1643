import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupManifestSchema,
  backupV1,
  durationFromMs,
  StoreOperationState,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { operation } from '../../../testing/fixtures';
import {
  backupSizesByTree,
  failedSince,
  operationDurations,
  overdueScope,
  stableCutoff,
} from './attention';

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2025, 5, 1, 12);

function scope(init: MessageInitShape<typeof backupV1.BackupScopeStatusResponseSchema>) {
  return create(backupV1.BackupScopeStatusResponseSchema, {
    found: true,
    scope: { treeId: 'orders' },
    ...init,
  } as MessageInitShape<typeof backupV1.BackupScopeStatusResponseSchema>);
}

describe('overdueScope', () => {
  it('is null without a schedule', () => {
    expect(overdueScope(scope({}), NOW)).toBeNull();
  });

  it('is null while the newest success is within twice the shortest interval', () => {
    const status = scope({
      fullScheduleRegistered: true,
      runtimeFullBackupInterval: durationFromMs(24 * HOUR),
      incrementalScheduleRegistered: true,
      runtimeIncrementalBackupInterval: durationFromMs(HOUR),
      lastFullSuccessUtc: timestampFromMs(NOW - 30 * HOUR),
      lastIncrementalSuccessUtc: timestampFromMs(NOW - 90 * 60 * 1000),
    });
    expect(overdueScope(status, NOW)).toBeNull();
  });

  it('reports how late a scope is past twice its interval', () => {
    const status = scope({
      fullScheduleRegistered: true,
      runtimeFullBackupInterval: durationFromMs(HOUR),
      lastFullSuccessUtc: timestampFromMs(NOW - 3 * HOUR),
    });
    expect(overdueScope(status, NOW)).toEqual({
      treeId: 'orders',
      lastSuccessMs: NOW - 3 * HOUR,
      intervalMs: HOUR,
      lateByMs: HOUR,
    });
  });

  it('reports a schedule that ran but never succeeded, not one that has not run yet', () => {
    const base = { fullScheduleRegistered: true, runtimeFullBackupInterval: durationFromMs(HOUR) };
    expect(overdueScope(scope(base), NOW)).toBeNull();
    expect(
      overdueScope(scope({ ...base, lastFullRunUtc: timestampFromMs(NOW - HOUR) }), NOW),
    ).toMatchObject({ lastSuccessMs: undefined, lateByMs: undefined });
  });
});

describe('failedSince', () => {
  it('keeps failed operations created inside the window only', () => {
    const ops = [
      operation({
        operationId: 'new',
        state: StoreOperationState.FAILED,
        createdAt: timestampFromMs(NOW - HOUR),
      }),
      operation({
        operationId: 'old',
        state: StoreOperationState.FAILED,
        createdAt: timestampFromMs(NOW - 25 * HOUR),
      }),
      operation({
        operationId: 'ok',
        state: StoreOperationState.SUCCEEDED,
        createdAt: timestampFromMs(NOW - HOUR),
      }),
    ];
    expect(failedSince(ops, NOW - 24 * HOUR).map((op) => op.operationId)).toEqual(['new']);
  });
});

describe('stableCutoff', () => {
  it('does not move within one step, so the query key stays put', () => {
    expect(stableCutoff(NOW + 1000, 24 * HOUR)).toBe(stableCutoff(NOW + 60_000, 24 * HOUR));
    expect(stableCutoff(NOW, 24 * HOUR)).toBeLessThanOrEqual(NOW - 24 * HOUR);
  });
});

describe('chart data', () => {
  it('measures finished operations only, oldest first', () => {
    const ops = [
      operation({
        operationId: 'b',
        startedAt: timestampFromMs(NOW - 500),
        finishedAt: timestampFromMs(NOW),
      }),
      operation({
        operationId: 'a',
        startedAt: timestampFromMs(NOW - 3000),
        finishedAt: timestampFromMs(NOW - 1000),
      }),
      operation({ operationId: 'running', startedAt: timestampFromMs(NOW) }),
    ];
    expect(operationDurations(ops).map((p) => [p.operationId, p.durationMs])).toEqual([
      ['a', 2000],
      ['b', 500],
    ]);
  });

  it('groups backup sizes by tree, biggest tree first', () => {
    const backup = (backupId: string, treeId: string, bytes: number, at: number) =>
      create(BackupManifestSchema, {
        backupId,
        treeId,
        byteSize: BigInt(bytes),
        createdAt: timestampFromMs(at),
      });
    const trees = backupSizesByTree([
      backup('b2', 'small', 10, NOW),
      backup('b3', 'big', 500, NOW),
      backup('b1', 'big', 700, NOW - HOUR),
    ]);
    expect(trees.map((t) => [t.treeId, t.points.map((p) => p.backupId), t.totalBytes])).toEqual([
      ['big', ['b1', 'b3'], 1200],
      ['small', ['b2'], 10],
    ]);
  });
});
