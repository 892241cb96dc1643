import { SchemaControlService, type StoreSchemaApiOperation } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useActiveTenant, useApi } from '../services';
import { useRoles } from '../identity/use-roles';
import { capabilitiesOf, roleShortfall, type Capabilities } from './capabilities';
import { SCHEMA_LEAST_ROLE } from './least-role';

/** What the caller may do on a tree through the schema service (ProbeCapabilities). */
export function useSchemaCapabilities(
  treeId: string | undefined,
): Capabilities<StoreSchemaApiOperation> {
  const api = useApi();
  const tenant = useActiveTenant();
  const roles = useRoles();
  const query = useQuery({
    queryKey: rpcKey(SchemaControlService.method.probeCapabilities, { treeId: treeId ?? '' }),
    // The schema client refuses an empty tree id before sending, hence `enabled`.
    queryFn: ({ signal }) => api.schema.probeCapabilities(treeId ?? '', { signal }),
    enabled: treeId !== undefined && treeId !== '',
    staleTime: 60_000,
  });
  return capabilitiesOf(query.data?.allowedOperations, {
    isLoading: query.isPending && !!treeId,
    error: query.error,
    tenant,
    needs: (operation) => roleShortfall(roles, SCHEMA_LEAST_ROLE.get(operation)),
  });
}
