import { StoreOperationState, StoreRestoreMode } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { EMPTY_RESTORE } from './restore-draft';
import { restoreGate, restoreRequestKey, TREE_CHANGED_REASON } from './restore-guard';

describe('restoreRequestKey', () => {
  const key = (draft: Partial<typeof EMPTY_RESTORE>, backupId = 'bk-1') =>
    restoreRequestKey(backupId, 'orders', { ...EMPTY_RESTORE, ...draft });

  it('differs when the backup, mode, target, prefix or cold read differ', () => {
    const base = key({});
    expect(key({}, 'bk-2')).not.toBe(base);
    expect(key({ mode: StoreRestoreMode.SHADOW })).not.toBe(base);
    expect(key({ mode: StoreRestoreMode.NEW_TREE, targetTreeId: 'copy' })).not.toBe(
      key({ mode: StoreRestoreMode.NEW_TREE, targetTreeId: 'other' }),
    );
    expect(key({ keyPrefix: 'eu/' })).not.toBe(base);
    expect(key({ cold: true })).not.toBe(base);
  });

  it('ignores the apply batch size, which changes how a restore writes and not what', () => {
    expect(key({ applyBatchSize: '50' })).toBe(key({}));
  });
});

describe('restoreGate', () => {
  it('opens only once the preview succeeded and the tree has not changed since', () => {
    expect(
      restoreGate({ previewState: StoreOperationState.SUCCEEDED, treeChanged: false }),
    ).toEqual({ open: true });
    for (const previewState of [
      undefined,
      StoreOperationState.QUEUED,
      StoreOperationState.RUNNING,
    ]) {
      expect(restoreGate({ previewState, treeChanged: false })).toMatchObject({
        open: false,
        previewAgain: false,
      });
    }
  });

  it('asks for a new preview after a failed or cancelled one, or when the tree changed', () => {
    expect(
      restoreGate({ previewState: StoreOperationState.FAILED, treeChanged: false }),
    ).toMatchObject({ open: false, previewAgain: true });
    expect(
      restoreGate({ previewState: StoreOperationState.CANCELLED, treeChanged: false }),
    ).toMatchObject({ open: false, previewAgain: true });
    expect(restoreGate({ previewState: StoreOperationState.SUCCEEDED, treeChanged: true })).toEqual(
      {
        open: false,
        reason: TREE_CHANGED_REASON,
        previewAgain: true,
      },
    );
  });
});
