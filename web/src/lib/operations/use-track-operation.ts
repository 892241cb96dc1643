import type { StoreOperationHandle } from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { paths } from '../paths';
import { useActiveTenant, useServices } from '../services';
import { kindLabel } from './operation-kinds';
import { refreshOperationLists } from './operation-keys';

/**
 * For any feature after a start RPC: `const track = useTrackOperation(); track(handle)`. The
 * operation joins the tray (which follows it to the end, across reloads), a toast links to its
 * detail page, and the operations lists refresh at once.
 */
export function useTrackOperation(): (
  handle: Pick<StoreOperationHandle, 'operationId' | 'kind'>,
) => void {
  const { tracked, toasts } = useServices();
  const tenant = useActiveTenant();
  const queryClient = useQueryClient();
  return useCallback(
    (handle) => {
      tracked.follow(tenant, handle);
      toasts.push({
        tone: 'info',
        title: `Started ${kindLabel(handle.kind).toLowerCase()}`,
        detail: `Operation ${handle.operationId}`,
        link: { to: paths.operation(handle.operationId), label: 'View progress' },
      });
      void refreshOperationLists(queryClient);
    },
    [tracked, toasts, tenant, queryClient],
  );
}
