import { IdentityService, type WhoAmIResponse } from '@store/contract';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi, useSession } from '../services';

export const whoAmIKey = rpcKey(IdentityService.method.whoAmI, {});

/** Who the server says the signed-in caller is: name, scheme, tenants with roles. */
export function useWhoAmIQuery(): UseQueryResult<WhoAmIResponse> {
  const api = useApi();
  const session = useSession();
  return useQuery({
    queryKey: whoAmIKey,
    queryFn: ({ signal }) => api.identity.whoAmI({}, { signal }),
    enabled: session !== null,
    // Grants change rarely; a refresh per minute picks up a revoked role without a reload.
    staleTime: 60_000,
  });
}
