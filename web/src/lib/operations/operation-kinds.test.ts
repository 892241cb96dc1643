import { StoreOperationKind } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { OPERATION_KINDS, familyOf } from './operation-kinds';

describe('OPERATION_KINDS', () => {
  it('offers every named kind, restore drills included (read through the drill services)', () => {
    expect(OPERATION_KINDS).toContain(StoreOperationKind.BACKUP);
    expect(OPERATION_KINDS).toContain(StoreOperationKind.RETENTION_APPLY);
    expect(OPERATION_KINDS).toContain(StoreOperationKind.RESTORE_DRILL);
    expect(OPERATION_KINDS).not.toContain(StoreOperationKind.UNSPECIFIED);
  });

  it('sends each offered kind to the service that tracks it', () => {
    expect(familyOf(StoreOperationKind.RETENTION_APPLY)).toBe('lifecycle');
    expect(familyOf(StoreOperationKind.RESTORE_PREVIEW)).toBe('backupInsight');
    expect(familyOf(StoreOperationKind.POLICY_DRY_RUN)).toBe('schemaInsight');
    expect(familyOf(StoreOperationKind.BACKUP)).toBe('backup');
    expect(familyOf(StoreOperationKind.RESTORE_DRILL)).toBe('drill');
  });
});
