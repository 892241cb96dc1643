import { timestampMs } from '@bufbuild/protobuf/wkt';
import { StoreSchemaDeadLetterReason } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { NO_FILTER, describeFilter, isFiltered, toWireFilter } from './dead-letter-filter';

describe('dead-letter filter', () => {
  it('an empty filter takes every letter and sends no condition', () => {
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(toWireFilter(NO_FILTER)).toEqual({ keyPrefix: '', reasons: [] });
    expect(describeFilter(NO_FILTER)).toBe('of any kind');
  });

  it('sends the reason, prefix and time it shows', () => {
    const filter = {
      reason: StoreSchemaDeadLetterReason.MIGRATION_FAILED,
      keyPrefix: 'a/',
      before: '2025-01-02T03:04',
    };
    expect(isFiltered(filter)).toBe(true);
    const wire = toWireFilter(filter);
    expect(wire.reasons).toEqual([StoreSchemaDeadLetterReason.MIGRATION_FAILED]);
    const at = new Date('2025-01-02T03:04').getTime();
    expect(timestampMs(wire.deadLetteredBefore as Parameters<typeof timestampMs>[0])).toBe(at);
    expect(describeFilter(filter)).toBe(
      `with reason Migration failed, key prefix "a/", set aside before ${new Date(at)
        .toISOString()
        .slice(0, 16)
        .replace('T', ' ')} UTC`,
    );
  });

  it('a time the browser cannot read is no condition', () => {
    expect(isFiltered({ ...NO_FILTER, before: 'soon' })).toBe(false);
  });
});
