import {
  BackupHealthStatus,
  BackupKind,
  StoreOperationKind,
  StoreOperationState,
  StoreSchemaDeadLetterReason,
} from '@store/contract';

/**
 * Words for the values the API spells as enum names, so no page shows SCHEMA_VIOLATION or
 * FAILED_PRECONDITION. Each mapping returns the words and the raw value; the console shows the
 * words and keeps the raw value in a tooltip (components/ui/term.tsx), for anyone matching logs.
 */
export interface Worded {
  /** What a reader sees: "Schema violation". */
  words: string;
  /** What the API sent: "SCHEMA_VIOLATION". */
  raw: string;
}

/** "INCREMENTAL_BACKUP", "incremental_backup", "IncrementalBackup" → "Incremental backup". */
export function wordsOf(name: string): string {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A protobuf-es enum value's name (the prefix is already stripped), or "UNSPECIFIED". */
function nameIn(enumObject: Record<number, string>, value: number): string {
  return enumObject[value] ?? 'UNSPECIFIED';
}

/** Words that read better than the plain spelling of the name. */
const KIND_WORDS: Partial<Record<StoreOperationKind, string>> = {
  [StoreOperationKind.BACKUP_HEALTH_CHECK]: 'Health check',
  [StoreOperationKind.BACKUP_DIFF]: 'Backup comparison',
  [StoreOperationKind.STALE_HEALTH_CHECK]: 'Verify stale backups',
  [StoreOperationKind.UNSPECIFIED]: 'Operation',
};

export function operationKindWords(kind: StoreOperationKind): Worded {
  const raw = nameIn(StoreOperationKind, kind);
  return { words: KIND_WORDS[kind] ?? wordsOf(raw), raw };
}

export function operationStateWords(state: StoreOperationState): Worded {
  const raw = nameIn(StoreOperationState, state);
  return { words: state === StoreOperationState.UNSPECIFIED ? 'Unknown' : wordsOf(raw), raw };
}

const REASON_WORDS: Record<string, string> = {
  CROSS_TENANT: 'Crosses tenants',
  UNSPECIFIED: 'No reason given',
};

/** A dead letter's reason, as the enum or as the string a put or import answer carries. */
export function deadLetterReasonWords(reason: StoreSchemaDeadLetterReason | string): Worded {
  const raw =
    typeof reason === 'number'
      ? nameIn(StoreSchemaDeadLetterReason, reason)
      : reason.replace(/^STORE_SCHEMA_DEAD_LETTER_REASON_/, '');
  return { words: REASON_WORDS[raw] ?? wordsOf(raw), raw };
}

export function backupKindWords(kind: BackupKind): Worded {
  const raw = nameIn(BackupKind, kind);
  return { words: kind === BackupKind.UNSPECIFIED ? 'Unknown' : wordsOf(raw), raw };
}

/** A backup's last health verdict; UNSPECIFIED means no check ever ran. */
export function healthStatusWords(status: BackupHealthStatus): Worded {
  const raw = nameIn(BackupHealthStatus, status);
  return {
    words: status === BackupHealthStatus.UNSPECIFIED ? 'Never verified' : wordsOf(raw),
    raw,
  };
}

const CODE_WORDS: Record<string, string> = {
  OK: 'Succeeded',
  CANCELED: 'Cancelled',
  CANCELLED: 'Cancelled',
  INVALID_ARGUMENT: 'Invalid request',
  DEADLINE_EXCEEDED: 'Timed out',
  NOT_FOUND: 'Not found',
  ALREADY_EXISTS: 'Already exists',
  PERMISSION_DENIED: 'Not permitted',
  RESOURCE_EXHAUSTED: 'Limit reached',
  FAILED_PRECONDITION: 'Refused in the current state',
  ABORTED: 'Interrupted by a concurrent change',
  OUT_OF_RANGE: 'Out of range',
  UNIMPLEMENTED: 'Not supported',
  INTERNAL: 'Internal error',
  UNAVAILABLE: 'Server unavailable',
  DATA_LOSS: 'Data damaged or missing',
  UNAUTHENTICATED: 'Sign-in refused',
  UNKNOWN: 'Unknown error',
};

/**
 * A gRPC status code in any of its spellings — audit outcomes ("PERMISSION_DENIED"), operation
 * errors (Connect's "permission_denied"), code names ("PermissionDenied") — as words.
 */
export function statusCodeWords(code: string): Worded {
  const upper = code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .trim();
  return { words: CODE_WORDS[upper] ?? wordsOf(code || 'UNKNOWN'), raw: code };
}
