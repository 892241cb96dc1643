import { IdentityService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import type { Api } from '../api/create-api';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';
import { SubjectBatcher } from './subject-batcher';
import { subjectLabel, type SubjectLabel } from './subject-label';
import { useWhoAmIQuery } from './use-who-am-i-query';

const batchers = new WeakMap<Api, SubjectBatcher>();

function batcherFor(api: Api): SubjectBatcher {
  let batcher = batchers.get(api);
  if (!batcher) {
    batcher = new SubjectBatcher(async (subjects) => {
      const answer = await api.identity.resolveSubjects({ subjects });
      return answer.subjects;
    });
    batchers.set(api, batcher);
  }
  return batcher;
}

/**
 * A subject's name: the server's (ResolveSubjects, batched per tick, names a token of this tenant
 * by its name), else the readable part the console can tell by itself (a server without the RPC,
 * a subject it knows no name for).
 */
export function useSubjectName(subject: string): SubjectLabel {
  const api = useApi();
  const who = useWhoAmIQuery();
  const resolved = useQuery({
    queryKey: rpcKey(IdentityService.method.resolveSubjects, { subjects: [subject] }),
    queryFn: () => batcherFor(api).resolve(subject),
    enabled: subject !== '',
    // Token names change rarely; a refused call (an older server) is not retried per cell.
    staleTime: 5 * 60_000,
    retry: false,
  });
  const local = subjectLabel(subject, who.data);
  const answer = resolved.data;
  if (!answer?.named) return local;
  const own = who.data?.subject === subject;
  return { name: own ? `${answer.displayName} (you)` : answer.displayName, subject };
}
