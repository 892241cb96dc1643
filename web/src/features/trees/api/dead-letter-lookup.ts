import type { StoreSchemaDeadLetterEntry } from '@store/contract';
import type { Api } from '../../../lib/api/create-api';

/**
 * The newest dead letter recorded for `key` in the tree, or null. StreamDeadLetters sends the
 * tree's dead letters oldest first, so the last match is the write just refused.
 */
export async function newestDeadLetterFor(
  api: Api,
  treeId: string,
  key: string,
  signal?: AbortSignal,
): Promise<StoreSchemaDeadLetterEntry | null> {
  let newest: StoreSchemaDeadLetterEntry | null = null;
  for await (const entry of api.schema.streamDeadLetters(treeId, { signal })) {
    if (entry.key === key) newest = entry;
  }
  return newest;
}
