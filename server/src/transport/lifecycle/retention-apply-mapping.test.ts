import { describe, expect, it } from 'vitest';
import type { RetentionApplyResult } from '../../engines/backup/lifecycle/retention-apply.js';
import { mapRetentionApplyResult } from './retention-apply-mapping.js';

const stored: RetentionApplyResult = {
  treeName: 'inventory',
  keyPrefix: 'sku/',
  fingerprint: 'f'.repeat(64),
  deletedBackupIds: ['b2', 'b1'],
  bytesFreed: 300,
  deletedElsewhere: ['b0'],
  keptCount: 4,
};

describe('a retention apply result on the wire', () => {
  it('names the deletions it recorded, with the scope and the counts', () => {
    const mapped = mapRetentionApplyResult({
      ...stored,
      firstDeleted: [
        { backupId: 'b2', name: 'inventory incremental', byteSize: 100 },
        { backupId: 'b1', name: 'inventory full', byteSize: 200 },
      ],
      afterScheduledCapture: true,
    });
    expect(mapped?.case).toBe('retentionApply');
    const value = mapped?.case === 'retentionApply' ? mapped.value : undefined;
    expect(value?.scope).toMatchObject({ treeId: 'inventory', keyPrefix: 'sku/' });
    expect(value?.deletedCount).toBe(2n);
    expect(value?.bytesFreed).toBe(300n);
    expect(value?.keptCount).toBe(4n);
    expect(value?.deletedElsewhereCount).toBe(1n);
    expect(value?.afterScheduledCapture).toBe(true);
    expect(value?.deleted.map((d) => [d.backupId, d.name, d.byteSize])).toEqual([
      ['b2', 'inventory incremental', 100n],
      ['b1', 'inventory full', 200n],
    ]);
  });

  it('lists a result stored before deletions were named by id, without names', () => {
    const mapped = mapRetentionApplyResult(stored);
    const value = mapped?.case === 'retentionApply' ? mapped.value : undefined;
    expect(value?.deleted.map((d) => [d.backupId, d.name])).toEqual([
      ['b2', ''],
      ['b1', ''],
    ]);
    expect(value?.afterScheduledCapture).toBe(false);
    expect(value?.scope?.keyPrefix).toBe('sku/');
  });
});
