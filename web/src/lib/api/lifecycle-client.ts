import { createClient, type Client } from '@connectrpc/connect';
import { BackupLifecycleService } from '@store/contract';
import { useMemo } from 'react';
import { useApi } from '../services';

export type LifecycleClient = Client<typeof BackupLifecycleService>;

/**
 * BackupLifecycleService (retention rules, previews and applies, protections; not in the specs)
 * on the API layer's transport, so it carries the same credential and tenant headers.
 */
export function useLifecycleClient(): LifecycleClient {
  const { transport } = useApi();
  return useMemo(() => createClient(BackupLifecycleService, transport), [transport]);
}
