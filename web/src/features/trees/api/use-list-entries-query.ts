import { TreeDataService } from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { currentPageToken, ENTRIES_PAGE_SIZE, type EntryBrowse } from '../utils/entry-browse';

/** One keyset page of a tree's live entries, under the browse's key prefix. */
export function useListEntriesQuery(treeId: string, browse: EntryBrowse) {
  const api = useApi();
  const request = {
    treeId,
    keyPrefix: browse.prefix,
    pageSize: ENTRIES_PAGE_SIZE,
    pageToken: currentPageToken(browse),
  };
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.listEntries, request),
    queryFn: ({ signal }) => api.data.listEntries(request, { signal }),
    // Paging keeps the rows on screen until the next page arrives, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}
