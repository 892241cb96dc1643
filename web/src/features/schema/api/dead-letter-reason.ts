import { StoreSchemaDeadLetterReason } from '@store/contract';

/** "SCHEMA_VIOLATION" → "Schema violation". */
export function reasonLabel(reason: StoreSchemaDeadLetterReason): string {
  const name = StoreSchemaDeadLetterReason[reason] ?? 'UNSPECIFIED';
  return name.charAt(0) + name.slice(1).toLowerCase().replaceAll('_', ' ');
}
