import type { Api } from '../../../lib/api/create-api';
import { DEFAULT_PLACEMENT, type CredentialPlacement } from '../../../lib/session/session-store';

/** One advertised way to sign in (AuthSchemeDescriptor of either service). */
export interface AdvertisedScheme {
  schemeId: string;
  displayName: string;
  parameters: Readonly<Record<string, string>>;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  scope: string;
}

/** What the sign-in page offers for an advertised scheme. */
export type SchemeOffer =
  | { kind: 'bearer'; scheme: AdvertisedScheme; placement: CredentialPlacement }
  | {
      kind: 'oidc';
      scheme: AdvertisedScheme;
      settings: OidcSettings;
      placement: CredentialPlacement;
    }
  | { kind: 'unavailable'; scheme: AdvertisedScheme; reason: string };

/**
 * The union of both services' advertisements, deduplicated by scheme id (the first one seen
 * wins, so the backup service's parameters are used when both advertise the same scheme).
 */
export function mergeAdvertisedSchemes(
  ...lists: readonly (readonly AdvertisedScheme[])[]
): AdvertisedScheme[] {
  const byId = new Map<string, AdvertisedScheme>();
  for (const list of lists) {
    for (const scheme of list) {
      if (scheme.schemeId && !byId.has(scheme.schemeId)) byId.set(scheme.schemeId, scheme);
    }
  }
  return [...byId.values()];
}

/**
 * Where the credential goes: the bearer scheme's {header, prefix} (DESIGN.md §4). OIDC access
 * tokens travel in the same header, so they use it too; the specs' defaults otherwise.
 */
export function credentialPlacement(schemes: readonly AdvertisedScheme[]): CredentialPlacement {
  const bearer = schemes.find((s) => s.schemeId === 'bearer');
  return {
    header: bearer?.parameters.header?.trim().toLowerCase() || DEFAULT_PLACEMENT.header,
    prefix: bearer?.parameters.prefix ?? DEFAULT_PLACEMENT.prefix,
  };
}

/** Decides how each advertised scheme is offered; unknown ones are listed as unavailable. */
export function offerSchemes(schemes: readonly AdvertisedScheme[]): SchemeOffer[] {
  const placement = credentialPlacement(schemes);
  return schemes.map((scheme): SchemeOffer => {
    if (scheme.schemeId === 'bearer') return { kind: 'bearer', scheme, placement };
    if (scheme.schemeId === 'oidc') {
      const { issuer, client_id: clientId, scope } = scheme.parameters;
      if (!issuer || !clientId) {
        return {
          kind: 'unavailable',
          scheme,
          reason: 'The server advertises single sign-on without an issuer or client id.',
        };
      }
      const settings = { issuer, clientId, scope: scope || 'openid' };
      return { kind: 'oidc', scheme, settings, placement };
    }
    return {
      kind: 'unavailable',
      scheme,
      reason: `This console does not support the "${scheme.schemeId}" sign-in scheme.`,
    };
  });
}

/**
 * Asks both services' GetAuthScheme, without a credential (the RPC is exempt from auth). One
 * service failing is tolerated, since a deployment may serve only one of them; both failing is
 * an error.
 */
export async function fetchAdvertisedSchemes(
  api: Api,
  signal?: AbortSignal,
): Promise<AdvertisedScheme[]> {
  const [backup, schema] = await Promise.allSettled([
    api.backup.getAuthScheme({}, { signal }).then((advertisement) => advertisement.schemes),
    api.schema.getAuthScheme({ signal }),
  ]);
  if (backup.status === 'rejected' && schema.status === 'rejected') throw backup.reason;
  return mergeAdvertisedSchemes(
    (backup.status === 'fulfilled' ? backup.value : []).map(plain),
    (schema.status === 'fulfilled' ? schema.value : []).map(plain),
  );
}

function plain(descriptor: AdvertisedScheme): AdvertisedScheme {
  return {
    schemeId: descriptor.schemeId,
    displayName: descriptor.displayName,
    parameters: { ...descriptor.parameters },
  };
}
