import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  RestoreDrillOutcome,
  RestoreDrillRecordSchema,
  type RestoreDrillRecord,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import {
  ageWords,
  drillOutcomeWords,
  expectedRestoreMs,
  proofCounts,
  proofState,
} from './proof-words';

const NOW = Date.UTC(2026, 10, 28, 12);
const HOUR = 3_600_000;

function record(over: {
  outcome: RestoreDrillOutcome;
  finishedAt?: number;
  durationMs?: number;
  reason?: string;
  firstDifferingKey?: string;
}): RestoreDrillRecord {
  const ms = over.durationMs ?? 1500;
  return create(RestoreDrillRecordSchema, {
    operationId: 'op',
    backupId: 'bk',
    outcome: over.outcome,
    reason: over.reason ?? '',
    ...(over.firstDifferingKey !== undefined && { firstDifferingKey: over.firstDifferingKey }),
    entries: 3000n,
    duration: { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 },
    entriesPerSecond: 2000,
    finishedAt: timestampFromMs(over.finishedAt ?? NOW - HOUR),
  });
}

const proven = (hoursAgo: number, durationMs = 1500) =>
  record({ outcome: RestoreDrillOutcome.PROVEN, finishedAt: NOW - hoursAgo * HOUR, durationMs });
const failed = (hoursAgo: number) =>
  record({
    outcome: RestoreDrillOutcome.FAILED,
    finishedAt: NOW - hoursAgo * HOUR,
    reason: 'content digest differs',
    firstDifferingKey: 'user/42',
  });

describe('drill words', () => {
  it('says a proven drill with its count, duration and rate, a failed one with its reason and key', () => {
    expect(drillOutcomeWords(proven(1))).toMatch(
      /^Proven: 3.000 entries restored in 2 s \(2.000 entries\/s\)$/,
    );
    expect(drillOutcomeWords(failed(1))).toBe(
      'Failed: content digest differs (first differing key "user/42")',
    );
  });

  it('reads ages in minutes, hours and days', () => {
    expect(ageWords(NOW - 10_000, NOW)).toBe('just now');
    expect(ageWords(NOW - 5 * 60_000, NOW)).toBe('5 min ago');
    expect(ageWords(NOW - 3 * HOUR, NOW)).toBe('3 h ago');
    expect(ageWords(NOW - 72 * HOUR, NOW)).toBe('3 days ago');
  });
});

describe('proofState', () => {
  it('tells never proven, failed since, proven long ago and proven recently apart', () => {
    expect(proofState({}, NOW)).toMatchObject({ kind: 'never', words: 'Never proven' });
    expect(proofState({ lastDrill: failed(1) }, NOW)).toMatchObject({
      kind: 'failed',
      tone: 'danger',
      words: 'Drill failed, never proven',
    });
    expect(proofState({ lastProven: proven(5), lastDrill: failed(1) }, NOW)).toMatchObject({
      kind: 'failed',
      words: 'Last drill failed (proven 5 h ago)',
    });
    expect(
      proofState({ lastProven: proven(10 * 24), lastDrill: proven(10 * 24) }, NOW),
    ).toMatchObject({ kind: 'stale', words: 'Proven 10 days ago' });
    expect(proofState({ lastProven: proven(2), lastDrill: proven(2) }, NOW)).toMatchObject({
      kind: 'proven',
      tone: 'success',
      words: 'Proven 2 h ago',
    });
  });

  it('counts the trees never proven and those whose proof failed or is old', () => {
    const counts = proofCounts(
      [
        { treeId: 'never' },
        { treeId: 'failed-never', lastDrill: failed(1) },
        { treeId: 'old', lastProven: proven(200), lastDrill: proven(200) },
        { treeId: 'broke', lastProven: proven(3), lastDrill: failed(1) },
        { treeId: 'fresh', lastProven: proven(3), lastDrill: proven(3) },
      ],
      NOW,
    );
    expect(counts).toEqual({
      never: ['never', 'failed-never'],
      notRecent: ['old', 'broke'],
      proven: 1,
    });
  });
});

describe('expectedRestoreMs', () => {
  it('is the median duration of the proven drills, ignoring failed ones', () => {
    expect(expectedRestoreMs([])).toBeUndefined();
    expect(expectedRestoreMs([failed(1)])).toBeUndefined();
    expect(expectedRestoreMs([proven(1, 1000), failed(2), proven(3, 5000), proven(4, 2000)])).toBe(
      2000,
    );
    expect(expectedRestoreMs([proven(1, 1000), proven(2, 3000)])).toBe(2000);
  });
});
