import { SchemaControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { DeadLetterReader } from '../api/dead-letter-reader';

/** How many dead letters the tree holds (CountDeadLetters). */
export function useCountDeadLettersQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(SchemaControlService.method.countDeadLetters, { treeId }),
    queryFn: ({ signal }) => api.schema.countDeadLetters(treeId, { signal }),
  });
}

/**
 * The tree's dead letters from StreamDeadLetters, read as far as `needed` rows. A new reader
 * per tree and per `generation` (Read again); leaving the page aborts the stream.
 */
export function useDeadLetterStream(treeId: string, needed: number, generation: number) {
  const api = useApi();
  const [reader, setReader] = useState<DeadLetterReader | null>(null);

  useEffect(() => {
    const next = new DeadLetterReader((signal) => api.schema.streamDeadLetters(treeId, { signal }));
    setReader(next);
    return () => next.close();
  }, [api, treeId, generation]);

  useEffect(() => {
    reader?.ensure(needed);
  }, [reader, needed]);

  const state = useSyncExternalStore(
    reader?.subscribe ?? noSubscribe,
    reader?.getSnapshot ?? initialSnapshot,
  );
  return state;
}

const idle = { rows: [], done: false, reading: true, error: null } as const;
function initialSnapshot() {
  return idle;
}
function noSubscribe() {
  return () => {};
}
