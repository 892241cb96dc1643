import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BackupManifestSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { compareBlocker, compareOrder, toggleCompare } from './compare-selection';

const backup = (backupId: string, treeId: string, ms: number) =>
  create(BackupManifestSchema, { backupId, treeId, createdAt: timestampFromMs(ms) });

describe('the catalog compare selection', () => {
  it('keeps the last two ticks, orders them oldest first, and refuses two trees', () => {
    const a = backup('a', 't', 3000);
    const b = backup('b', 't', 1000);
    const c = backup('c', 'u', 2000);
    let picked = toggleCompare([], a);
    expect(compareBlocker(picked)).toMatch(/Tick two/);
    picked = toggleCompare(picked, b);
    expect(compareBlocker(picked)).toBeUndefined();
    expect(compareOrder(picked)?.map((m) => m.backupId)).toEqual(['b', 'a']);
    picked = toggleCompare(picked, c);
    expect(picked.map((m) => m.backupId)).toEqual(['b', 'c']);
    expect(compareBlocker(picked)).toMatch(/two trees/);
    expect(toggleCompare(picked, c).map((m) => m.backupId)).toEqual(['b']);
  });
});
