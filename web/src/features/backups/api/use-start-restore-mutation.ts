import type { MessageInitShape } from '@bufbuild/protobuf';
import type { backupV1 } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { paths } from '../../../lib/paths';
import { useApi } from '../../../lib/services';

interface StartRestore {
  request: MessageInitShape<typeof backupV1.RestoreRequestMessageSchema>;
  /** StartColdRestore: read the chain from the artifact store's manifests. */
  cold: boolean;
}

/** Starts a (cold) restore, follows it in the tray and opens its operation page. */
export function useStartRestoreMutation() {
  const api = useApi();
  const track = useTrackOperation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: ({ request, cold }: StartRestore) =>
      cold ? api.backup.startColdRestore(request) : api.backup.startRestore(request),
    meta: { silent: true },
    onSuccess: (handle) => {
      track(handle);
      void navigate(paths.operation(handle.operationId));
    },
  });
}
