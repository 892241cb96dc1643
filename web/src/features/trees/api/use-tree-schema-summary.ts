import { useCountDeadLettersQuery } from '../../../lib/schema/use-count-dead-letters-query';
import { useGetPolicyQuery } from '../../../lib/schema/use-get-policy-query';

/** The tree's schema policy (null: none) and dead-letter count, for the tree's header. */
export function useTreeSchemaSummary(treeId: string) {
  return { policy: useGetPolicyQuery(treeId), deadLetters: useCountDeadLettersQuery(treeId) };
}
