import type { ApiTokenService } from './api-tokens.js';
import type { OidcVerifier } from './oidc-verifier.js';
import { CredentialError, type Principal } from './principal.js';

/** Resolves a presented credential to a principal, or throws CredentialError with the reason. */
export type CredentialVerifier = (credential: string) => Promise<Principal>;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;
const TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/;

/** API tokens for opaque credentials; OIDC access tokens (JWT) when an issuer is configured. */
export function createCredentialVerifier(
  tokens: ApiTokenService | undefined,
  oidc: OidcVerifier | undefined,
): CredentialVerifier {
  return async (credential) => {
    if (JWT_SHAPE.test(credential)) {
      if (!oidc) throw new CredentialError('unknown', 'single sign-on is not configured');
      return oidc.verify(credential);
    }
    if (!TOKEN_SHAPE.test(credential)) {
      throw new CredentialError('malformed', 'credential is malformed');
    }
    if (!tokens) throw new CredentialError('unknown', 'API tokens are not enabled');
    return tokens.verify(credential);
  };
}
