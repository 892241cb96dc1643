import { describe, expect, it } from 'vitest';
import { damagedBackupCount, groupFindings, type ScrubFinding } from './scrub-findings';

const finding = (backupId: string, artifactId: string, problem: string) =>
  ({ backupId, artifactId, problem, detail: '' }) as ScrubFinding;

describe('scrub findings', () => {
  it('separates damaged catalog rows from orphan artifacts', () => {
    const findings = [
      finding('bk-1', 'a1', 'missing'),
      finding('bk-1', 'a2', 'corrupt'),
      finding('bk-2', 'a3', 'corrupt'),
      finding('', 'stray', 'orphan'),
    ];
    const grouped = groupFindings(findings);
    expect(grouped.damagedRows.map((f) => f.artifactId)).toEqual(['a1', 'a2', 'a3']);
    expect(grouped.orphans.map((f) => f.artifactId)).toEqual(['stray']);
    expect(damagedBackupCount(findings)).toBe(2);
  });

  it('is empty for a clean scrub', () => {
    expect(groupFindings([])).toEqual({ damagedRows: [], orphans: [] });
    expect(damagedBackupCount([])).toBe(0);
  });
});
