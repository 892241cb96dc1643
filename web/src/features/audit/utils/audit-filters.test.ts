import { timestampMs } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { auditFiltersFromSearch, auditRequestOf, searchFromAuditFilters } from './audit-filters';

describe('audit filters in the URL', () => {
  it('reads and writes the same filters, so a link reproduces the view', () => {
    const search =
      'subject=token%3Aabc&method=PutEntry&outcome=PERMISSION_DENIED&since=2026-11-01&until=2026-11-24';
    const filters = auditFiltersFromSearch(new URLSearchParams(search));
    expect(filters).toEqual({
      subject: 'token:abc',
      method: 'PutEntry',
      outcome: 'PERMISSION_DENIED',
      since: '2026-11-01',
      until: '2026-11-24',
    });
    expect(searchFromAuditFilters(filters).toString()).toBe(search);
  });

  it('drops days that do not exist and outcomes that are not code names', () => {
    const filters = auditFiltersFromSearch(
      new URLSearchParams('since=2026-02-30&until=tomorrow&outcome=<b>'),
    );
    expect(filters).toEqual({ subject: '', method: '', outcome: '', since: '', until: '' });
    expect(searchFromAuditFilters(filters).toString()).toBe('');
  });

  it('asks for [since 00:00, the day after until 00:00) in the reader’s zone', () => {
    const request = auditRequestOf({
      subject: '',
      method: '',
      outcome: '',
      since: '2026-11-01',
      until: '2026-11-01',
    });
    expect(timestampMs(request.since as never)).toBe(new Date(2026, 10, 1).getTime());
    expect(timestampMs(request.until as never)).toBe(new Date(2026, 10, 2).getTime());
  });
});
