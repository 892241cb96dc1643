import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { browseFromSearch, searchFromBrowse, type EntryBrowse } from '../utils/entry-browse';

/**
 * The entries view's state in the URL. Paging pushes history (Back returns to the previous page);
 * opening a value and typing a new prefix replace it.
 */
export function useEntryBrowse(): [EntryBrowse, (next: EntryBrowse, push?: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const browse = useMemo(() => browseFromSearch(params), [params]);
  const setBrowse = useCallback(
    (next: EntryBrowse, push = false) => setParams(searchFromBrowse(next), { replace: !push }),
    [setParams],
  );
  return [browse, setBrowse];
}
