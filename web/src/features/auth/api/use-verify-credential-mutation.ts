import type { WhoAmIResponse } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { whoAmIKey } from '../../../lib/identity/use-who-am-i-query';
import { useApi, useServices } from '../../../lib/services';
import { verifyCredential, type Candidate } from './verify-credential';

export interface VerifyVariables extends Candidate {
  schemeId: string;
}

/**
 * Checks a credential with WhoAmI and, when the server accepts it, starts the session in the
 * tenant the server resolved. The form shows a refusal itself (meta.silent: no toast).
 */
export function useVerifyCredentialMutation() {
  const api = useApi();
  const { session } = useServices();
  const queryClient = useQueryClient();
  return useMutation<WhoAmIResponse, Error, VerifyVariables>({
    mutationFn: (candidate) => verifyCredential(api, candidate),
    meta: { silent: true },
    onSuccess: (who, { schemeId, token, placement }) => {
      queryClient.setQueryData(whoAmIKey, who);
      session.signIn({ schemeId, token, placement, tenant: who.activeTenant || undefined });
    },
  });
}
