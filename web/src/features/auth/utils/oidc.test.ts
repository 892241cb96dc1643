import { beforeEach, describe, expect, it, vi } from 'vitest';
import { safeReturnPath, startOidcSignIn } from './oidc';

const created: { settings: Record<string, unknown>; redirectArgs: unknown[] }[] = [];

vi.mock('oidc-client-ts', () => ({
  WebStorageStateStore: class {
    constructor(readonly options: { store: Storage }) {}
  },
  UserManager: class {
    private readonly record: { settings: Record<string, unknown>; redirectArgs: unknown[] };
    constructor(settings: Record<string, unknown>) {
      this.record = { settings, redirectArgs: [] };
      created.push(this.record);
    }
    signinRedirect(...args: unknown[]) {
      this.record.redirectArgs = args;
      return Promise.resolve();
    }
  },
}));

const settings = { issuer: 'https://id.example.com', clientId: 'console', scope: 'openid' };
const placement = { header: 'authorization', prefix: 'Bearer' };

describe('single sign-on', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('runs authorization code + PKCE with the advertised parameters and the callback route', async () => {
    await startOidcSignIn(settings, placement, '/operations?state=RUNNING');
    expect(created[0]?.settings).toMatchObject({
      authority: 'https://id.example.com',
      client_id: 'console',
      scope: 'openid',
      redirect_uri: `${window.location.origin}/auth/callback`,
      response_type: 'code',
    });
    // Where to return rides in the stored state, not in the URL.
    expect(created[0]?.redirectArgs).toEqual([
      { state: { returnTo: '/operations?state=RUNNING' } },
    ]);
  });

  it('keeps the oidc user and the sign-in state in sessionStorage, never localStorage', async () => {
    await startOidcSignIn(settings, placement, '/');
    const { userStore, stateStore } = created[0]!.settings as Record<
      string,
      { options: { store: Storage } }
    >;
    expect(userStore?.options.store).toBe(sessionStorage);
    expect(stateStore?.options.store).toBe(sessionStorage);
    expect(localStorage.length).toBe(0);
  });

  it('returns only to a path of the console', () => {
    expect(safeReturnPath('/backups?tree=a')).toBe('/backups?tree=a');
    expect(safeReturnPath('//evil.example.com')).toBe('/');
    expect(safeReturnPath('https://evil.example.com')).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
  });
});
