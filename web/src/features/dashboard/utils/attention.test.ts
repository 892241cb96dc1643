import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BackupManifestSchema, StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { operation } from '../../../testing/fixtures';
import { backupSizesByTree, failedSince, operationDurations, stableCutoff } from './attention';

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2025, 5, 1, 12);

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
