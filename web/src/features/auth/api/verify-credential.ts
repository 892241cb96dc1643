import { Code, ConnectError } from '@connectrpc/connect';
import type { WhoAmIResponse } from '@store/contract';
import type { Api } from '../../../lib/api/create-api';
import { ACTIVE_TENANT_HEADER } from '../../../lib/api/session-interceptor';
import { credentialValue, type CredentialPlacement } from '../../../lib/session/session-store';

export interface Candidate {
  token: string;
  placement: CredentialPlacement;
  /** Needed only when the credential is granted several tenants. */
  tenant?: string | undefined;
}

/**
 * Asks WhoAmI with a candidate credential before the console accepts it. The headers are set
 * here, so the session interceptor leaves them alone and a refusal ends no session.
 */
export function verifyCredential(
  api: Api,
  candidate: Candidate,
  signal?: AbortSignal,
): Promise<WhoAmIResponse> {
  const headers: Record<string, string> = {
    [candidate.placement.header]: credentialValue(candidate),
  };
  if (candidate.tenant) headers[ACTIVE_TENANT_HEADER] = candidate.tenant;
  return api.identity.whoAmI({}, { headers, signal });
}

/**
 * True when the server refused to pick a tenant: the credential holds several and the call named
 * none (DESIGN.md §4, step 5). The sign-in form then asks for one.
 */
export function needsTenant(error: unknown): boolean {
  const connectError = ConnectError.from(error);
  return (
    connectError.code === Code.InvalidArgument &&
    connectError.rawMessage.includes(ACTIVE_TENANT_HEADER)
  );
}

/** A pasted "Bearer abc…" becomes "abc…": the prefix is the console's to add. */
export function normalizeToken(raw: string, prefix: string): string {
  const token = raw.trim();
  const lead = prefix.trim();
  if (lead && token.toLowerCase().startsWith(`${lead.toLowerCase()} `)) {
    return token.slice(lead.length).trim();
  }
  return token;
}
