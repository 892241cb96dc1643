import { StoreOperationKind } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { useApi } from '../../../lib/services';
import type { RunAgainRequest } from '../utils/run-again';

/** Starts a new operation with a failed one's request, through the same start RPC. */
export function useRunAgainMutation() {
  const api = useApi();
  const track = useTrackOperation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (request: RunAgainRequest) =>
      request.kind === StoreOperationKind.BACKUP_HEALTH_CHECK
        ? api.backup.startBackupHealthCheck(request.backupId)
        : api.backup.startCatalogRebuild(),
    meta: { errorTitle: 'Not started again' },
    onSuccess: (handle) => {
      track(handle);
      void navigate(paths.operation(handle.operationId));
    },
  });
}
