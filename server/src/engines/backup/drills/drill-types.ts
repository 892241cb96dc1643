/** Restore drills' engine types (issue 36 bullet 2). */
import type { TreeDb } from '../../../storage/data/tree-db.js';

/** What a drill restores: one backup (with its chain), or every member of a set. */
export interface RestoreDrillRequest {
  backupId?: string | undefined;
  setId?: string | undefined;
  /** Entries a second the drill applies and reads back at most; 0: as fast as it can. */
  maxEntriesPerSecond?: number | undefined;
  /** The spot-check's seed; absent: one is drawn and recorded. */
  sampleSeed?: number | undefined;
}

export type DrillOutcome = 'PROVEN' | 'FAILED';

/** Why a drill failed (none for PROVEN), as the proto enum names it without its prefix. */
export type DrillReasonKind =
  'NONE' | 'NO_DIGEST' | 'UNREADABLE_ARTIFACT' | 'COUNT' | 'DIGEST' | 'SAMPLE';

/** The drill of one backup. */
export interface DrillBackupResult {
  backupId: string;
  treeName: string;
  keyPrefix: string;
  outcome: DrillOutcome;
  reasonKind: DrillReasonKind;
  /** In words: what differed, or "restored N entries, content digest and M sampled entries match". */
  reason: string;
  firstDifferingKey: string | null;
  /** Entries applied from the chain. */
  entries: number;
  durationMs: number;
}

/** A drill's operation result: PROVEN only when every backup it restored was. */
export interface RestoreDrillResult {
  outcome: DrillOutcome;
  reasonKind: DrillReasonKind;
  reason: string;
  firstDifferingKey: string | null;
  setId: string | null;
  backups: DrillBackupResult[];
  entries: number;
  durationMs: number;
  entriesPerSecond: number;
  sampleSeed: number;
  sampleSize: number;
}

/** Test seams, named as such: faults planted where a real one would strike. */
export interface DrillTestSeams {
  /** Returns false for a record the restore is to drop (a restore bug). */
  keepRecord?: (record: { key: string; valueJson: string | null }) => boolean;
  /**
   * Runs after the restore, before the compare, on the scratch physical tree, given the handle
   * its entries are written through (its own table on PostgreSQL).
   */
  beforeCompare?: (physicalTreeId: string, scratch: TreeDb) => Promise<void>;
}
