import { StoreOperationState } from '@store/contract';
import { restoreTarget, type RestoreDraft } from './restore-draft';

/** A restore preview the dialog started, with the exact restore request it previewed. */
export interface RestorePreviewRecord {
  /** restoreRequestKey of the request previewed. */
  request: string;
  operationId: string;
}

/**
 * What decides what a restore does, as one comparable value: backup, mode, target tree, key
 * prefix, cold. The apply batch size is left out: it changes how the restore writes, not what.
 */
export function restoreRequestKey(backupId: string, treeId: string, draft: RestoreDraft): string {
  return JSON.stringify([
    backupId,
    draft.mode,
    restoreTarget(treeId, draft),
    draft.keyPrefix,
    draft.cold,
  ]);
}

export type RestoreGate = { open: true } | { open: false; reason: string; previewAgain: boolean };

export const TREE_CHANGED_REASON = 'The tree changed since the preview; preview again.';

/**
 * Whether "Restore in place" may be used: only once the preview of exactly this request has
 * succeeded, and the tree has not been found changed since. Otherwise, the reason shown beside
 * the disabled button, and whether a new preview is what it takes.
 */
export function restoreGate(input: {
  /** The state of this request's preview; undefined when it has none (yet) or is unknown. */
  previewState: StoreOperationState | undefined;
  treeChanged: boolean;
}): RestoreGate {
  const { previewState, treeChanged } = input;
  if (treeChanged) return { open: false, reason: TREE_CHANGED_REASON, previewAgain: true };
  switch (previewState) {
    case StoreOperationState.SUCCEEDED:
      return { open: true };
    case StoreOperationState.FAILED:
      return {
        open: false,
        reason: 'The preview failed; a restore in place needs a finished preview. Preview again.',
        previewAgain: true,
      };
    case StoreOperationState.CANCELLED:
      return {
        open: false,
        reason: 'The preview was cancelled; preview again to restore in place.',
        previewAgain: true,
      };
    default:
      return {
        open: false,
        reason: 'Restoring in place waits for the preview of exactly this restore to finish.',
        previewAgain: false,
      };
  }
}
