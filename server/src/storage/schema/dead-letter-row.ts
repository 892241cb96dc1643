import type { Selectable } from 'kysely';
import type { SchemaDeadLettersTable } from '../database-schema.js';

/**
 * The one mapping of a stored dead letter's columns: the pending-letter stream reads its first
 * fields, the insight listing adds the replay history on top, so both agree on every field.
 */

/** WRITTEN is final; REFUSED leaves the letter pending. */
export type ReplayOutcome = 'WRITTEN' | 'REFUSED';

/** A stored dead letter with its arrival-order id. */
export interface DeadLetterRow {
  id: number;
  key: string;
  valueJson: string;
  reason: string;
  errors: string[];
  sourceOperationId: string | null;
  schemaVersion: number;
  deadLetteredAt: number;
}

/** A dead letter row with its replay history. */
export interface DeadLetterRecordRow extends DeadLetterRow {
  replayOutcome: ReplayOutcome | null;
  replayedAt: number | null;
  replayedBy: string | null;
  replaySequence: number | null;
  replayedValueJson: string | null;
  replayErrors: string[];
  discardedAt: number | null;
  discardedBy: string | null;
  discardNote: string | null;
}

type StoredLetter = Selectable<SchemaDeadLettersTable>;

/** A stored letter as the schema engine streams it. */
export function toDeadLetterRow(row: StoredLetter): DeadLetterRow {
  return {
    id: Number(row.id),
    key: row.key,
    valueJson: row.value_json,
    reason: row.reason,
    errors: parseStrings(row.errors_json),
    sourceOperationId: row.source_operation_id,
    schemaVersion: Number(row.schema_version),
    deadLetteredAt: Number(row.dead_lettered_at),
  };
}

/** A stored letter with its replay and discard history. */
export function toDeadLetterRecordRow(row: StoredLetter): DeadLetterRecordRow {
  return {
    ...toDeadLetterRow(row),
    replayOutcome: row.replay_outcome === null ? null : (row.replay_outcome as ReplayOutcome),
    replayedAt: row.replayed_at === null ? null : Number(row.replayed_at),
    replayedBy: row.replayed_by,
    replaySequence: row.replay_sequence === null ? null : Number(row.replay_sequence),
    replayedValueJson: row.replayed_value_json,
    replayErrors: parseStrings(row.replay_errors_json),
    discardedAt: row.discarded_at === null ? null : Number(row.discarded_at),
    discardedBy: row.discarded_by,
    discardNote: row.discard_note,
  };
}

/** A stored JSON array of messages; anything unreadable reads as none. */
function parseStrings(json: string | null): string[] {
  if (json === null) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
