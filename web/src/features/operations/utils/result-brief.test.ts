import { StoreOperationKind, StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { operation } from '../../../testing/fixtures';
import { resultBrief } from './result-brief';

const succeeded = (init: Parameters<typeof operation>[0]) =>
  operation({ state: StoreOperationState.SUCCEEDED, ...init });

describe('resultBrief', () => {
  it('puts one of a thing in the singular: a backup of one entry, a set of one tree', () => {
    const capture = succeeded({
      result: {
        case: 'capture',
        value: { backupId: 'b-1', manifest: { name: 'inventory full 1', entryCount: 1n } },
      },
    });
    expect(resultBrief(capture)).toBe('Backup inventory full 1, 1 entry');
    const set = succeeded({
      kind: StoreOperationKind.BACKUP_SET,
      result: { case: 'setCapture', value: { members: [{}] } },
    });
    expect(resultBrief(set)).toBe('Backup set of 1 tree');
    const restore = succeeded({
      kind: StoreOperationKind.RESTORE,
      result: { case: 'restore', value: { entriesApplied: 1n, targetTreeId: 'orders' } },
    });
    expect(resultBrief(restore)).toBe('1 entry restored into orders');
    const check = succeeded({
      result: { case: 'healthReport', value: { issues: [{}] } },
    });
    expect(resultBrief(check)).toBe('Verdict: 1 issue');
    const scrub = succeeded({
      result: { case: 'scrub', value: { rowsChecked: 1, findings: [{}] } },
    });
    expect(resultBrief(scrub)).toBe('1 catalog row checked, 1 finding');
  });

  it('keeps the plural for none and for many', () => {
    const capture = succeeded({
      result: {
        case: 'capture',
        value: { backupId: 'b-2', manifest: { name: 'orders full 2', entryCount: 1200n } },
      },
    });
    expect(resultBrief(capture)).toBe('Backup orders full 2, 1,200 entries');
    const scrub = succeeded({
      result: { case: 'scrub', value: { rowsChecked: 0, findings: [] } },
    });
    expect(resultBrief(scrub)).toBe('0 catalog rows checked, 0 findings');
  });

  it('says nothing for an operation that has not succeeded', () => {
    expect(resultBrief(operation())).toBeNull();
  });
});
