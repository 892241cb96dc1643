import { DrillProofService, type TreeProof } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useDrillProofClient } from '../api/drill-client';
import { SLOW_POLL_MS } from '../polling';
import { rpcKey } from '../query-keys';
import { unlessUnimplemented } from '../operations/schema-insight-operations';

/** Pages read at most: 10 × 500 trees; a tenant with more shows the first 5 000 by name. */
const MAX_PAGES = 10;

/**
 * Every tree of the tenant with its last proven and last drill (ListTreeProofs, page after page),
 * slow-polled: a planned drill may prove a tree while the page is open.
 */
export function useTreeProofsQuery() {
  const client = useDrillProofClient();
  return useQuery({
    queryKey: rpcKey(DrillProofService.method.listTreeProofs, {}),
    queryFn: async ({ signal }): Promise<TreeProof[]> => {
      const trees: TreeProof[] = [];
      let pageToken = '';
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await unlessUnimplemented(
          client.listTreeProofs({ pageToken }, { signal }),
          null,
        );
        if (!response) break;
        trees.push(...response.trees);
        pageToken = response.nextPageToken;
        if (pageToken === '') break;
      }
      return trees;
    },
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/** The proofs by tree id, for tables that look a tree up. */
export function treeProofMap(trees: readonly TreeProof[] | undefined): Map<string, TreeProof> {
  return new Map((trees ?? []).map((t) => [t.treeId, t]));
}
