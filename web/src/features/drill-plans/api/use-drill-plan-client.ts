import { createClient, type Client } from '@connectrpc/connect';
import { RestoreDrillPlanService } from '@store/contract';
import { useMemo } from 'react';
import { useServices } from '../../../lib/services';

export type DrillPlanClient = Client<typeof RestoreDrillPlanService>;

/** RestoreDrillPlanService on the API layer's transport (same credential and tenant headers). */
export function useDrillPlanClient(): DrillPlanClient {
  const { transport } = useServices().api;
  return useMemo(() => createClient(RestoreDrillPlanService, transport), [transport]);
}
