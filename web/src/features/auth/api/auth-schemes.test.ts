import { describe, expect, it } from 'vitest';
import { bearerScheme, oidcScheme } from '../../../testing/fixtures';
import { credentialPlacement, mergeAdvertisedSchemes, offerSchemes } from './auth-schemes';

describe('advertised schemes', () => {
  it('is the union of both services, each scheme once', () => {
    const merged = mergeAdvertisedSchemes([bearerScheme], [bearerScheme, oidcScheme]);
    expect(merged.map((s) => s.schemeId)).toEqual(['bearer', 'oidc']);
  });

  it('offers a token form for bearer and a redirect for oidc', () => {
    const offers = offerSchemes([bearerScheme, oidcScheme]);
    expect(offers.map((o) => o.kind)).toEqual(['bearer', 'oidc']);
    expect(offers[1]).toMatchObject({
      settings: { issuer: 'https://id.example.com', clientId: 'console', scope: 'openid profile' },
    });
  });

  it('lists a scheme the console does not know as unavailable, with the reason', () => {
    const [offer] = offerSchemes([
      { schemeId: 'kerberos', displayName: 'Kerberos', parameters: {} },
    ]);
    expect(offer).toMatchObject({ kind: 'unavailable' });
    expect(offer?.kind === 'unavailable' && offer.reason).toContain('"kerberos"');
  });

  it('lists oidc as unavailable when the issuer or client id is missing', () => {
    const [offer] = offerSchemes([{ ...oidcScheme, parameters: { issuer: 'https://x' } }]);
    expect(offer?.kind).toBe('unavailable');
  });

  it('places the credential as the bearer scheme says, or by the specs defaults', () => {
    const custom = { ...bearerScheme, parameters: { header: 'X-Api-Key', prefix: '' } };
    expect(credentialPlacement([custom])).toEqual({ header: 'x-api-key', prefix: '' });
    expect(credentialPlacement([oidcScheme])).toEqual({
      header: 'authorization',
      prefix: 'Bearer',
    });
  });
});
