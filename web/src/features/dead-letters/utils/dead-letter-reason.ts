import type { StoreSchemaDeadLetterReason } from '@store/contract';
import { deadLetterReasonWords } from '../../../lib/words';

/** SCHEMA_VIOLATION → "Schema violation" (lib/words, shared by every page). */
export function reasonLabel(reason: StoreSchemaDeadLetterReason): string {
  return deadLetterReasonWords(reason).words;
}
