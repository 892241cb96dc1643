import type { StoreSchemaDeadLetterEntry } from '@store/contract';
import { describeError } from '../../../lib/errors';
import type { Api } from '../../../lib/api/create-api';
import { newestDeadLetterFor } from './dead-letter-lookup';

/** What became of a put: written with a new sequence, or refused into the dead letters. */
export type PutOutcome =
  | { kind: 'written'; key: string; sequence: bigint }
  | {
      kind: 'dead-lettered';
      key: string;
      reason: string;
      /** The recorded dead letter with the policy's errors; null when it could not be read. */
      deadLetter: StoreSchemaDeadLetterEntry | null;
      /** Why the dead letter could not be read (e.g. not allowed), if so. */
      lookupError: string | null;
    };

/** PutEntry, and on a refusal the dead letter it left, so the form can say why. */
export async function putEntryWithOutcome(
  api: Api,
  treeId: string,
  key: string,
  valueJson: string,
): Promise<PutOutcome> {
  const response = await api.data.putEntry({ treeId, key, valueJson });
  if (!response.deadLettered) return { kind: 'written', key, sequence: response.sequence };
  const reason = response.deadLetterReason ?? 'refused';
  try {
    const deadLetter = await newestDeadLetterFor(api, treeId, key);
    return { kind: 'dead-lettered', key, reason, deadLetter, lookupError: null };
  } catch (error) {
    return {
      kind: 'dead-lettered',
      key,
      reason,
      deadLetter: null,
      lookupError: describeError(error),
    };
  }
}
