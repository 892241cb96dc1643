import type { BackupInsightOperationKind } from '../../operation-kinds.js';
import type { ScopeInput } from '../backup-types.js';
import type { ComparisonCounts } from './compare-sides.js';
import type { DifferenceStorageView } from './difference-storage.js';

export type ComparisonKind = Exclude<BackupInsightOperationKind, 'STALE_HEALTH_CHECK'>;

/** The comparison kinds of backup insight, as the runner and the proto enum name them. */
export const COMPARISON_KINDS: readonly ComparisonKind[] = [
  'RESTORE_PREVIEW',
  'BACKUP_DIFF',
  'REVERT_PREVIEW',
];

/** What a restore of `backupId` would do to its target tree (issue 16, section 1). */
export interface PreviewRequest {
  backupId: string;
  /** Empty: the backup's own tree. */
  targetTreeId?: string | undefined;
  scope?: ScopeInput | undefined;
  /** Read the chain from the manifests, as a cold restore does. */
  cold: boolean;
}

/** The difference between two backups of one tree (issue 16, section 2). */
export interface DiffRequest {
  fromBackupId: string;
  toBackupId: string;
  scope?: ScopeInput | undefined;
}

/** What reverting the in-place restore `restoreOperationId` would do to its tree now. */
export interface RevertPreviewRequest {
  restoreOperationId: string;
}

/** A finished comparison: the operation's result. */
export interface ComparisonReport {
  operationId: string;
  kind: ComparisonKind;
  treeId: string;
  keyPrefix: string;
  fromChain: string[];
  toChain: string[];
  counts: ComparisonCounts;
  /**
   * Preview (restore or revert): the tree's physical tree and sequence high-water mark as the
   * preview read them.
   */
  physicalTreeId: string | null;
  treeSequence: number;
  comparedAt: number;
  /** Revert preview: the restore it previews. */
  restoreOperationId?: string | undefined;
  /** Revert preview: keys written or deleted since the restore, which the revert discards. */
  writesSinceRestore?: number | undefined;
}

/** A report with the target tree's state now (a preview may be stale). */
export interface ComparisonView {
  report: ComparisonReport | undefined;
  treeChanged: boolean;
  currentTreeSequence: number;
  /** What is stored of the differences; undefined when nothing was recorded. */
  storage?: DifferenceStorageView | undefined;
}

/** A stored difference as the transport maps it (the storage layer's row, re-exported). */
export type {
  DifferenceChange,
  StoredDifference,
} from '../../../storage/backup/backup-comparison-store.js';
