import {
  BackupHealthStatus,
  BackupKind,
  StoreOperationKind,
  StoreOperationState,
  StoreSchemaDeadLetterReason,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import {
  backupKindWords,
  deadLetterReasonWords,
  healthStatusWords,
  operationKindWords,
  operationStateWords,
  rpcMethodWords,
  rpcServiceWords,
  statusCodeWords,
  wordsOf,
} from '.';

/** Every named value of a protobuf-es enum. */
function valuesOf<E extends number>(enumObject: Record<string, string | number>): E[] {
  return Object.values(enumObject).filter((v): v is E => typeof v === 'number');
}

/** Words, not a code: no underscore, no SHOUTING, no CamelCase run. */
const READABLE = /^[A-Z][a-z]*( [a-z0-9]+)*$|^[A-Z][a-z ]+$/;

describe('words for enum values', () => {
  it('spells any code style as sentence-case words', () => {
    expect(wordsOf('INCREMENTAL_BACKUP')).toBe('Incremental backup');
    expect(wordsOf('failed_precondition')).toBe('Failed precondition');
    expect(wordsOf('AdvanceAndMigrate')).toBe('Advance and migrate');
  });

  it('turns every operation kind and state into words, keeping the raw name', () => {
    for (const kind of valuesOf<StoreOperationKind>(StoreOperationKind)) {
      const term = operationKindWords(kind);
      expect(term.words, term.raw).not.toMatch(/_|[A-Z]{2}/);
      expect(term.raw).toBe(StoreOperationKind[kind]);
    }
    expect(operationKindWords(StoreOperationKind.ADVANCE_AND_MIGRATE).words).toBe(
      'Advance and migrate',
    );
    expect(operationKindWords(StoreOperationKind.BACKUP_DIFF).words).toBe('Backup comparison');
    for (const state of valuesOf<StoreOperationState>(StoreOperationState)) {
      expect(operationStateWords(state).words).toMatch(READABLE);
    }
  });

  it('names dead-letter reasons from the enum and from the strings put and import answers carry', () => {
    expect(deadLetterReasonWords(StoreSchemaDeadLetterReason.SCHEMA_VIOLATION)).toEqual({
      words: 'Schema violation',
      raw: 'SCHEMA_VIOLATION',
    });
    expect(deadLetterReasonWords('SCHEMA_VIOLATION').words).toBe('Schema violation');
    expect(deadLetterReasonWords('STORE_SCHEMA_DEAD_LETTER_REASON_OVER_QUOTA').words).toBe(
      'Over quota',
    );
    for (const reason of valuesOf<StoreSchemaDeadLetterReason>(StoreSchemaDeadLetterReason)) {
      expect(deadLetterReasonWords(reason).words).not.toMatch(/_|[A-Z]{2}/);
    }
  });

  it('names backup kinds and health verdicts; no verdict reads "Never verified"', () => {
    expect(backupKindWords(BackupKind.INCREMENTAL).words).toBe('Incremental');
    expect(healthStatusWords(BackupHealthStatus.CORRUPT)).toEqual({
      words: 'Corrupt',
      raw: 'CORRUPT',
    });
    expect(healthStatusWords(BackupHealthStatus.UNSPECIFIED).words).toBe('Never verified');
  });

  it('reads status codes in every spelling the API uses', () => {
    expect(statusCodeWords('PERMISSION_DENIED').words).toBe('Not permitted');
    expect(statusCodeWords('permission_denied').words).toBe('Not permitted');
    expect(statusCodeWords('FailedPrecondition').words).toBe('Refused in the current state');
    expect(statusCodeWords('OK').words).toBe('Succeeded');
    expect(statusCodeWords('cancelled').words).toBe('Cancelled');
  });
});

describe('words for RPC names', () => {
  it('drops the service path and the Start of a tracked operation', () => {
    expect(rpcMethodWords('store.schema.v1.SchemaControlService/StartAdvanceAndMigrate')).toEqual({
      words: 'Advance and migrate',
      raw: 'store.schema.v1.SchemaControlService/StartAdvanceAndMigrate',
    });
    expect(rpcMethodWords('DeleteBackup').words).toBe('Delete backup');
    expect(rpcMethodWords('WhoAmI').words).toBe('Who am I');
    expect(rpcServiceWords('store.schema.v1.SchemaControlService').words).toBe('Schema control');
  });
});
