import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_MAX, truncateField, truncateRecordFields } from './audit-fields.js';

const record = {
  tenant: 'acme',
  subject: 'token:t-1',
  service: 'store.data.v1.TreeDataService',
  method: 'PutEntry',
  targetId: 'orders',
  outcome: 'PERMISSION_DENIED',
  clientAddress: '127.0.0.1',
  detail: 'PutEntry is not permitted for this caller',
};

describe('audit field lengths', () => {
  it.each(Object.entries(AUDIT_FIELD_MAX))(
    'the %s field is stored at most %i characters, marked with its original length when cut',
    (field, max) => {
      const long = 'x'.repeat(4_000_000);
      const cut = truncateRecordFields({ ...record, [field]: long });
      const value = cut[field as keyof typeof cut] as string;
      expect(value.length).toBeLessThanOrEqual(max);
      expect(value).toMatch(/^x+… \[4000000 chars\]$/);
      // The other fields are untouched, and a value exactly at the limit is kept whole.
      expect({ ...cut, [field]: record[field as keyof typeof record] }).toEqual(record);
      const atLimit = truncateRecordFields({ ...record, [field]: 'y'.repeat(max) });
      expect(atLimit[field as keyof typeof atLimit]).toBe('y'.repeat(max));
    },
  );

  it('a value read already cut (a prefix from SQL) is marked with the stored length', () => {
    expect(truncateField('abcdef', 20, 9_000)).toBe('abcdef… [9000 chars]');
    expect(truncateField('abcdef', 20, 6)).toBe('abcdef');
  });

  it('never ends on half of a surrogate pair', () => {
    const cut = truncateField('😀'.repeat(100), 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut).not.toMatch(/[\uD800-\uDBFF]…/);
  });

  it('a null target stays null', () => {
    expect(truncateRecordFields({ ...record, targetId: null }).targetId).toBeNull();
  });
});
