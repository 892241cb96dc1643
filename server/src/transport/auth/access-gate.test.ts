import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type Principal } from '../../engines/identity/principal.js';
import { requestedTenantOf, resolveCallScope, resolveCaller } from './access-gate.js';
import { headerCredentialBridge } from './credential-bridge.js';

const two: Principal = {
  subject: 's',
  displayName: 'S',
  schemeId: 'bearer',
  anonymous: false,
  grants: new Map([
    ['acme', ['admin']],
    ['beta', ['viewer']],
  ]),
};
const one: Principal = { ...two, grants: new Map([['acme', ['viewer']]]) };

function codeOf(fn: () => unknown): Code | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

describe('the access gate', () => {
  it('when the header is absent, the only tenant is used', () => {
    expect(resolveCallScope(one, undefined, 'h', undefined).tenant).toBe('acme');
  });

  it('when the header is absent and the caller has several tenants, it is InvalidArgument', () => {
    expect(codeOf(() => resolveCallScope(two, undefined, 'h', undefined))).toBe(
      Code.InvalidArgument,
    );
  });

  it('for a call that needs no tenant, several tenants without the header leave it undefined', () => {
    expect(resolveCaller(two, undefined, undefined).tenant).toBeUndefined();
    expect(resolveCaller(two, 'beta', undefined).tenant).toBe('beta');
    expect(resolveCaller(one, undefined, undefined).tenant).toBe('acme');
    expect(codeOf(() => resolveCaller(two, 'gamma', undefined))).toBe(Code.PermissionDenied);
    expect(codeOf(() => resolveCaller(ANONYMOUS, undefined, undefined))).toBe(Code.Unauthenticated);
  });

  it('when the header names a tenant not granted, it is PermissionDenied', () => {
    expect(codeOf(() => resolveCallScope(one, 'beta', 'h', undefined))).toBe(Code.PermissionDenied);
  });

  it('when the caller is anonymous, it is Unauthenticated unless a trusted tenant is set', () => {
    expect(codeOf(() => resolveCallScope(ANONYMOUS, undefined, 'h', undefined))).toBe(
      Code.Unauthenticated,
    );
    const scope = resolveCallScope(ANONYMOUS, undefined, 'h', 'lab');
    expect(scope.tenant).toBe('lab');
    expect(scope.caller.grants.get('lab')).toEqual(['admin']);
    expect(codeOf(() => resolveCallScope(ANONYMOUS, 'other', 'h', 'lab'))).toBe(
      Code.PermissionDenied,
    );
  });

  it.each(['../x', 't/other', '', '%2e%2e', 'a b', 'x'.repeat(129)])(
    'when the header holds %j, it is InvalidArgument',
    (value) => {
      const headers = new Headers({ 'store-active-tenant': value });
      expect(codeOf(() => requestedTenantOf(headers, 'store-active-tenant'))).toBe(
        Code.InvalidArgument,
      );
    },
  );
});

describe('the header credential bridge', () => {
  const bridge = headerCredentialBridge({
    credentialHeaderName: 'authorization',
    credentialScheme: 'Bearer',
  });
  const resolve = (value?: string) =>
    bridge.resolve({
      service: 's',
      method: 'm',
      requestHeader: new Headers(value === undefined ? {} : { authorization: value }),
      signal: new AbortController().signal,
    });

  it('strips the scheme prefix in any casing', () => {
    expect(resolve('Bearer abc')).toBe('abc');
    expect(resolve('bearer abc')).toBe('abc');
    expect(resolve('BEARER   abc')).toBe('abc');
  });

  it('without the header the caller is anonymous (null)', () => {
    expect(resolve()).toBeNull();
  });

  it('a present header without the prefix is still a credential (and will fail to verify)', () => {
    expect(resolve('Basic Zm9v')).toBe('Basic Zm9v');
    expect(resolve('')).toBe('');
  });
});
