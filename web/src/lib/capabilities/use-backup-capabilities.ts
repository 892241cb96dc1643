import { BackupControlService, type StoreBackupApiOperation } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useActiveTenant, useApi } from '../services';
import { useRoles } from '../identity/use-roles';
import { capabilitiesOf, roleShortfall, type Capabilities } from './capabilities';
import { BACKUP_LEAST_ROLE } from './least-role';

/**
 * What the caller may do on a tree through the backup service (ProbeCapabilities). Pass
 * undefined until the tree is known; the probe is read-only and cached for a minute.
 */
export function useBackupCapabilities(
  treeId: string | undefined,
): Capabilities<StoreBackupApiOperation> {
  const api = useApi();
  const tenant = useActiveTenant();
  const roles = useRoles();
  const scope = { treeId: treeId ?? '' };
  const query = useQuery({
    queryKey: rpcKey(BackupControlService.method.probeCapabilities, { scope }),
    queryFn: ({ signal }) => api.backup.probeCapabilities(scope, { signal }),
    enabled: treeId !== undefined,
    staleTime: 60_000,
  });
  return capabilitiesOf(query.data?.allowedOperations, {
    isLoading: query.isPending && treeId !== undefined,
    error: query.error,
    tenant,
    needs: (operation) => roleShortfall(roles, BACKUP_LEAST_ROLE.get(operation)),
  });
}
