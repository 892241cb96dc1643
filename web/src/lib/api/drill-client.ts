import { createClient, type Client } from '@connectrpc/connect';
import { DrillProofService, RestoreDrillService } from '@store/contract';
import { useMemo } from 'react';
import { useServices } from '../services';

export type RestoreDrillClient = Client<typeof RestoreDrillService>;
export type DrillProofClient = Client<typeof DrillProofService>;

/**
 * RestoreDrillService (start, result, history, status, cancel of restore drills; not in the
 * specs) on the API layer's transport. In lib: the operations pages read drills' status and
 * cancel them, and the drills feature starts them.
 */
export function useRestoreDrillClient(): RestoreDrillClient {
  const { transport } = useServices().api;
  return useMemo(() => createClient(RestoreDrillService, transport), [transport]);
}

/** DrillProofService (last proven per tree and per backup, the drills' operations list). */
export function useDrillProofClient(): DrillProofClient {
  const { transport } = useServices().api;
  return useMemo(() => createClient(DrillProofService, transport), [transport]);
}
