import type { Duration } from '@bufbuild/protobuf/wkt';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { RestoreDrillOutcome, type RestoreDrillRecord } from '@store/contract';
import type { BadgeTone } from '../../components/ui/badge';
import { formatCount, formatDuration } from '../format';

/** A tree or a backup not proven within this many days reads as "not proven recently". */
export const RECENT_PROOF_DAYS = 7;
const DAY_MS = 86_400_000;

/** The drill records a proof is made of (DrillProofService's TreeProof and BackupProof). */
export interface ProofRecords {
  lastProven?: RestoreDrillRecord | undefined;
  lastDrill?: RestoreDrillRecord | undefined;
}

export type ProofKind = 'never' | 'failed' | 'stale' | 'proven';

export interface ProofState {
  kind: ProofKind;
  tone: BadgeTone;
  /** A badge's words: "Proven 2 h ago", "Never proven", "Last drill failed". */
  words: string;
}

/** A protobuf Duration in milliseconds (absent: 0). */
export function durationMs(duration: Duration | undefined): number {
  if (!duration) return 0;
  return Number(duration.seconds) * 1000 + duration.nanos / 1e6;
}

/** A drill's finish time in ms (absent: 0). */
export function finishedMs(record: RestoreDrillRecord | undefined): number {
  return record?.finishedAt ? timestampMs(record.finishedAt) : 0;
}

/** 90 s → "2 min ago"; 3 days → "3 days ago"; in the future or just now → "just now". */
export function ageWords(ms: number, nowMs: number): string {
  const age = nowMs - ms;
  if (age < 60_000) return 'just now';
  const minutes = Math.round(age / 60_000);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(age / 3_600_000);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(age / DAY_MS)} days ago`;
}

/** "12 500 entries/s" (whole entries). */
export function rateWords(entriesPerSecond: number): string {
  return `${formatCount(Math.round(entriesPerSecond))} entries/s`;
}

/**
 * A drill's result in words: "Proven: 30 entries restored in 1 s (1 200 entries/s)", or "Failed:
 * <reason> (first differing key "k")".
 */
export function drillOutcomeWords(record: RestoreDrillRecord): string {
  if (record.outcome === RestoreDrillOutcome.PROVEN) {
    return `Proven: ${formatCount(record.entries)} entries restored in ${formatDuration(
      durationMs(record.duration),
    )} (${rateWords(record.entriesPerSecond)})`;
  }
  const key =
    record.firstDifferingKey !== undefined
      ? ` (first differing key "${record.firstDifferingKey}")`
      : '';
  return `Failed: ${record.reason || 'no reason recorded'}${key}`;
}

/**
 * Where a tree or a backup stands: never proven, its newest drill failed, proven but not within
 * RECENT_PROOF_DAYS, or proven recently.
 */
export function proofState(proof: ProofRecords, nowMs: number): ProofState {
  const { lastProven, lastDrill } = proof;
  const failedSince =
    lastDrill !== undefined &&
    lastDrill.outcome === RestoreDrillOutcome.FAILED &&
    finishedMs(lastDrill) >= finishedMs(lastProven);
  if (!lastProven) {
    return failedSince
      ? { kind: 'failed', tone: 'danger', words: 'Drill failed, never proven' }
      : { kind: 'never', tone: 'warning', words: 'Never proven' };
  }
  const age = ageWords(finishedMs(lastProven), nowMs);
  if (failedSince) {
    return { kind: 'failed', tone: 'danger', words: `Last drill failed (proven ${age})` };
  }
  if (nowMs - finishedMs(lastProven) > RECENT_PROOF_DAYS * DAY_MS) {
    return { kind: 'stale', tone: 'warning', words: `Proven ${age}` };
  }
  return { kind: 'proven', tone: 'success', words: `Proven ${age}` };
}

/**
 * The expected time to restore, read from the proven drills of a history: their median
 * duration, or undefined when none proved.
 */
export function expectedRestoreMs(history: readonly RestoreDrillRecord[]): number | undefined {
  const durations = history
    .filter((d) => d.outcome === RestoreDrillOutcome.PROVEN)
    .map((d) => durationMs(d.duration))
    .sort((a, b) => a - b);
  if (durations.length === 0) return undefined;
  const mid = Math.floor(durations.length / 2);
  return durations.length % 2 === 1 ? durations[mid] : (durations[mid - 1]! + durations[mid]!) / 2;
}

/** The dashboard's counts: trees never proven, and trees whose proof is failed or old. */
export function proofCounts(
  trees: readonly (ProofRecords & { treeId: string })[],
  nowMs: number,
): { never: string[]; notRecent: string[]; proven: number } {
  const never: string[] = [];
  const notRecent: string[] = [];
  let proven = 0;
  for (const tree of trees) {
    const kind = proofState(tree, nowMs).kind;
    if (kind === 'proven') proven += 1;
    else if (kind === 'never' || !tree.lastProven) never.push(tree.treeId);
    else notRecent.push(tree.treeId);
  }
  return { never, notRecent, proven };
}
