import type { MessageInitShape } from '@bufbuild/protobuf';
import type { backupV1 } from '@store/contract';
import {
  backupNameError,
  keyPrefixError,
  stepError,
  throttleError,
  stepValue,
  treeNameError,
} from './form-checks';

export type CaptureKind = 'full' | 'incremental' | 'set';

/** What the start-backup form holds, as typed. */
export interface CaptureDraft {
  kind: CaptureKind;
  name: string;
  /** Full and incremental: the tree captured. */
  treeId: string;
  keyPrefix: string;
  /** Incremental: a backup of treeId to build on. */
  baseBackupId: string;
  /** Set: two or more trees. */
  setTreeIds: string[];
  crossTreeConsistent: boolean;
  pageSize: string;
  /** The throttle as typed: blank reads as fast as the server can. */
  maxEntriesPerSecond: string;
}

export type CaptureField =
  | 'name'
  | 'treeId'
  | 'keyPrefix'
  | 'baseBackupId'
  | 'setTreeIds'
  | 'pageSize'
  | 'maxEntriesPerSecond';
export type CaptureErrors = Partial<Record<CaptureField, string>>;

export function emptyCaptureDraft(kind: CaptureKind, treeId = ''): CaptureDraft {
  return {
    kind,
    name: '',
    treeId,
    keyPrefix: '',
    baseBackupId: '',
    setTreeIds: [],
    crossTreeConsistent: true,
    pageSize: '',
    maxEntriesPerSecond: '',
  };
}

/** The form's checks; an empty object means the draft can be sent. */
export function checkCapture(draft: CaptureDraft): CaptureErrors {
  const errors: CaptureErrors = {
    name: backupNameError(draft.name),
    pageSize: stepError(draft.pageSize, 'Page size'),
    maxEntriesPerSecond: throttleError(draft.maxEntriesPerSecond),
  };
  if (draft.kind === 'set') {
    const distinct = new Set(draft.setTreeIds);
    if (distinct.size < 2) errors.setTreeIds = 'Pick at least two trees for a set';
    else if (distinct.size !== draft.setTreeIds.length) errors.setTreeIds = 'Each tree only once';
  } else {
    errors.treeId = treeNameError(draft.treeId);
    errors.keyPrefix = keyPrefixError(draft.keyPrefix);
    if (draft.kind === 'incremental' && !draft.baseBackupId) {
      errors.baseBackupId = 'Pick the backup to build on';
    }
  }
  return Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== undefined),
  ) as CaptureErrors;
}

type CaptureInit = MessageInitShape<typeof backupV1.BackupCaptureRequestMessageSchema>;
type IncrementalInit = MessageInitShape<
  typeof backupV1.BackupIncrementalCaptureRequestMessageSchema
>;
type SetInit = MessageInitShape<typeof backupV1.BackupSetCaptureRequestMessageSchema>;

export type CaptureRequest =
  | { kind: 'full'; request: CaptureInit }
  | { kind: 'incremental'; request: IncrementalInit }
  | { kind: 'set'; request: SetInit };

/** The start request of a checked draft. */
export function captureRequest(draft: CaptureDraft): CaptureRequest {
  const name = draft.name.trim();
  const pageSize = stepValue(draft.pageSize);
  const throttle = draft.maxEntriesPerSecond.trim();
  const paced = throttle === '' ? {} : { maxEntriesPerSecond: Number(throttle) };
  const scope = {
    treeId: draft.treeId,
    ...(draft.keyPrefix !== '' && { keyPrefix: draft.keyPrefix }),
  };
  switch (draft.kind) {
    case 'full':
      return { kind: 'full', request: { name, scope, pageSize, ...paced } };
    case 'incremental':
      return {
        kind: 'incremental',
        request: { name, scope, pageSize, ...paced, baseBackupId: draft.baseBackupId },
      };
    case 'set':
      return {
        kind: 'set',
        request: {
          name,
          pageSize,
          ...paced,
          scopes: draft.setTreeIds.map((treeId) => ({ treeId })),
          crossTreeConsistent: draft.crossTreeConsistent,
        },
      };
  }
}
