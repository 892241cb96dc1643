import type { MessageInitShape } from '@bufbuild/protobuf';
import { StoreRestoreMode, type backupV1 } from '@store/contract';
import { keyPrefixError, stepError, stepValue, treeNameError } from './form-checks';

/** What the restore dialog holds, as typed. */
export interface RestoreDraft {
  mode: StoreRestoreMode;
  /** NEW_TREE: the empty tree to fill. */
  targetTreeId: string;
  applyBatchSize: string;
  /** Only entries under this prefix; '' restores everything. */
  keyPrefix: string;
  /** Read the chain from the artifact store's manifests instead of the catalog. */
  cold: boolean;
  /** Ticked to restore a backup whose last report is CORRUPT or MISSING. */
  healthOverride: boolean;
}

export type RestoreField = 'targetTreeId' | 'applyBatchSize' | 'keyPrefix' | 'healthOverride';
export type RestoreErrors = Partial<Record<RestoreField, string>>;

/** A new dialog's draft: into a new tree, so replacing the live tree is a deliberate choice. */
export const EMPTY_RESTORE: RestoreDraft = {
  mode: StoreRestoreMode.NEW_TREE,
  targetTreeId: '',
  applyBatchSize: '',
  keyPrefix: '',
  cold: false,
  healthOverride: false,
};

/** The dialog's checks; `overrideNeeded` when the backup's last report is CORRUPT or MISSING. */
export function checkRestore(draft: RestoreDraft, overrideNeeded: boolean): RestoreErrors {
  const errors: RestoreErrors = {
    applyBatchSize: stepError(draft.applyBatchSize, 'Apply batch size'),
    keyPrefix: keyPrefixError(draft.keyPrefix),
  };
  if (draft.mode === StoreRestoreMode.NEW_TREE) {
    errors.targetTreeId = treeNameError(draft.targetTreeId, 'Target tree');
  }
  if (overrideNeeded && !draft.healthOverride) {
    errors.healthOverride =
      'Confirm that you want to restore a backup that failed its health check';
  }
  return Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== undefined),
  ) as RestoreErrors;
}

/** The StartRestore / StartColdRestore request of a checked draft for a backup of `treeId`. */
export function restoreRequest(
  backupId: string,
  treeId: string,
  draft: RestoreDraft,
): MessageInitShape<typeof backupV1.RestoreRequestMessageSchema> {
  return {
    backupId,
    mode: draft.mode,
    applyBatchSize: stepValue(draft.applyBatchSize),
    ...(draft.mode === StoreRestoreMode.NEW_TREE && { targetTreeId: draft.targetTreeId }),
    ...(draft.keyPrefix !== '' && { scope: { treeId, keyPrefix: draft.keyPrefix } }),
  };
}

/** The tree a restore writes to: the backup's own tree unless NEW_TREE names another. */
export function restoreTarget(treeId: string, draft: RestoreDraft): string {
  return draft.mode === StoreRestoreMode.NEW_TREE ? draft.targetTreeId : treeId;
}
