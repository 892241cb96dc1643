import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { fetchAdvertisedSchemes, offerSchemes, type SchemeOffer } from './auth-schemes';

/** Two RPCs merged into one answer, so a hand-made key (STYLE.md, Naming). */
export const authSchemesKey = ['console', 'auth-schemes'] as const;

/** What the sign-in page offers: the union of both services' advertised schemes. */
export function useGetAuthSchemesQuery() {
  const api = useApi();
  return useQuery({
    queryKey: authSchemesKey,
    queryFn: ({ signal }) => fetchAdvertisedSchemes(api, signal),
    select: (schemes): SchemeOffer[] => offerSchemes(schemes),
    staleTime: 60_000,
  });
}
