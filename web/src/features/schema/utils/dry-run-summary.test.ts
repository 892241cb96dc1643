import { create } from '@bufbuild/protobuf';
import { PolicyDryRunReportSchema } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import { dryRunSummary } from './dry-run-summary';

const group = (keyword: string, instancePath: string, entryCount: bigint) => ({
  keyword,
  instancePath,
  entryCount,
});

describe('dryRunSummary', () => {
  it('says how many of how many, then the largest groups by path and keyword', () => {
    const report = create(PolicyDryRunReportSchema, {
      scanned: 40_000n,
      failing: 12n,
      groups: [group('format', '/email', 11n), group('minimum', '/age', 1n)],
    });
    expect(dryRunSummary(report)).toBe(
      `12 of ${(40_000).toLocaleString()} entries would be refused; 11 × /email format, 1 × /age minimum`,
    );
  });

  it('names the whole value (root) and marks groups left out', () => {
    const report = create(PolicyDryRunReportSchema, {
      scanned: 9n,
      failing: 9n,
      groups: [
        group('required', '', 4n),
        group('type', '/a', 3n),
        group('type', '/b', 1n),
        group('type', '/c', 1n),
      ],
    });
    expect(dryRunSummary(report)).toBe(
      '9 of 9 entries would be refused; 4 × (root) required, 3 × /a type, 1 × /b type, …',
    );
  });

  it('is short when nothing would be refused', () => {
    expect(dryRunSummary(create(PolicyDryRunReportSchema, { scanned: 1n }))).toBe(
      '0 of 1 entry would be refused',
    );
  });
});
