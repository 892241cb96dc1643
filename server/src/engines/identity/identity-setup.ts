import type { ServerConfig } from '../../config/settings.js';
import type { Logger } from '../../logging/logger.js';
import type { Storage } from '../../storage/database.js';
import { TokenStore } from '../../storage/identity/token-store.js';
import { ApiTokenService } from './api-tokens.js';
import { createCredentialVerifier, type CredentialVerifier } from './credential-verifier.js';
import { OidcVerifier } from './oidc-verifier.js';

export interface IdentitySetup {
  tokens: ApiTokenService;
  verify: CredentialVerifier;
  /** Set only when this start issued the first admin token (shown once, never stored). */
  bootstrapToken: string | undefined;
  /** That token's public id (for the audit record of its issue). */
  bootstrapTokenId: string | undefined;
}

/**
 * API tokens and (when configured) OIDC. On an empty data directory the first admin token is
 * STORE_BOOTSTRAP_TOKEN or a random one, so a new user signs in within a minute.
 */
export async function setUpIdentity(
  storage: Storage,
  config: ServerConfig,
  logger: Logger,
): Promise<IdentitySetup> {
  const tokens = new ApiTokenService(new TokenStore(storage));
  const oidc =
    config.oidcIssuer && config.oidcClientId
      ? new OidcVerifier({
          issuer: config.oidcIssuer,
          audience: config.oidcAudience ?? config.oidcClientId,
          clientId: config.oidcClientId,
          tenantsClaim: config.oidcTenantsClaim,
          rolesClaim: config.oidcRolesClaim,
        })
      : undefined;
  let bootstrapToken: string | undefined;
  let bootstrapTokenId: string | undefined;
  if (!(await tokens.any())) {
    const issued = await tokens.issue({
      tenant: config.bootstrapTenant,
      roles: ['admin'],
      name: 'bootstrap admin',
      ...(config.bootstrapTokenTtlMs !== null && { ttlMs: config.bootstrapTokenTtlMs }),
      ...(config.bootstrapToken !== undefined && { presetToken: config.bootstrapToken }),
    });
    bootstrapToken = issued.token;
    bootstrapTokenId = issued.info.id;
    logger.info(
      { tenant: config.bootstrapTenant, tokenId: issued.info.id, expiresAt: issued.info.expiresAt },
      'issued the first admin API token',
    );
  }
  return {
    tokens,
    verify: createCredentialVerifier(tokens, oidc),
    bootstrapToken,
    bootstrapTokenId,
  };
}
