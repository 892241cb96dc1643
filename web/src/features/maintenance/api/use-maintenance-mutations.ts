import { useMutation } from '@tanstack/react-query';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { useApi } from '../../../lib/services';

/** Starts a catalog rebuild of the tenant as a tracked operation. */
export function useStartRebuildMutation() {
  const api = useApi();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: () => api.backup.startCatalogRebuild(),
    meta: { errorTitle: 'Catalog rebuild not started' },
    onSuccess: (handle) => track(handle),
  });
}

/** Starts a catalog scrub; with pruneOrphans it deletes artifacts no catalog row owns. */
export function useStartScrubMutation() {
  const api = useApi();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (pruneOrphans: boolean) => api.backup.startCatalogScrub(pruneOrphans),
    meta: { errorTitle: 'Catalog scrub not started' },
    onSuccess: (handle) => track(handle),
  });
}
