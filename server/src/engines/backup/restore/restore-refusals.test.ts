import { describe, expect, it } from 'vitest';
import type { RestoreRow } from '../../../storage/backup/backup-restore-store.js';
import { revertibleRestore } from './revert.js';
import { validateRestoreRequest } from './restore-service.js';

const ENUM_NAMES = /\b(NEW_TREE|IN_PLACE|SHADOW|SUCCEEDED|UNSPECIFIED)\b/;

function restore(mode: string, extra: Partial<RestoreRow> = {}): RestoreRow {
  return {
    tenant: 't',
    operationId: 'op-1',
    backupId: 'bk-1',
    targetTree: 'orders',
    mode,
    restoredPhysicalTreeId: 'p-2',
    previousPhysicalTreeId: 'p-1',
    resultJson: '{}',
    createdAt: 0,
    revertedAt: null,
    revertedBy: null,
    installedSequence: 0,
    ...extra,
  };
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'ok';
}

describe('restore refusals are words, never mode names', () => {
  it('a restore into a new tree without a target says so in words', () => {
    const message = messageOf(() =>
      validateRestoreRequest({ backupId: 'bk-1', mode: 'NEW_TREE', applyBatchSize: 0 }),
    );
    expect(message).toBe('target_tree_id: is required for a restore into a new tree');
  });

  it('only a restore in place is revertible; the others say what they did instead', () => {
    const newTree = messageOf(() => revertibleRestore(restore('NEW_TREE')));
    expect(newTree).toBe(
      'only a restore in place can be reverted; this one filled a new tree and left the tree as it was',
    );
    const shadow = messageOf(() => revertibleRestore(restore('SHADOW')));
    expect(shadow).toContain('this one restored beside the tree');
    for (const message of [newTree, shadow]) expect(message).not.toMatch(ENUM_NAMES);
    expect(revertibleRestore(restore('IN_PLACE')).previousPhysicalTreeId).toBe('p-1');
  });
});
