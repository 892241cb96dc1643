import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { BackupControlService, IdentityService, SchemaControlService } from '@store/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../../lib/session/session-store';
import { bearerScheme, oidcScheme, whoAmI, type SchemeFixture } from '../../../testing/fixtures';
import { createTestApp, renderApp } from '../../../testing/render-app';

const kerberos: SchemeFixture = { schemeId: 'kerberos', displayName: 'Kerberos', parameters: {} };

interface Server {
  backupSchemes: SchemeFixture[];
  schemaSchemes: SchemeFixture[];
  whoAmICalls: Headers[];
  schemeCalls: Headers[];
}

function server(overrides: Partial<Server> = {}): [Server, (router: ConnectRouter) => void] {
  const state: Server = {
    backupSchemes: [bearerScheme, kerberos],
    schemaSchemes: [bearerScheme, oidcScheme],
    whoAmICalls: [],
    schemeCalls: [],
    ...overrides,
  };
  return [
    state,
    (router) => {
      router.service(BackupControlService, {
        getAuthScheme: (_req, ctx) => {
          state.schemeCalls.push(ctx.requestHeader);
          return { schemes: state.backupSchemes };
        },
      });
      router.service(SchemaControlService, {
        getAuthScheme: (_req, ctx) => {
          state.schemeCalls.push(ctx.requestHeader);
          return { schemes: state.schemaSchemes };
        },
      });
      router.service(IdentityService, {
        whoAmI: (_req, ctx) => {
          state.whoAmICalls.push(ctx.requestHeader);
          if (ctx.requestHeader.get('authorization') !== 'Bearer good-token') {
            throw new ConnectError('credential refused: unknown token', Code.Unauthenticated);
          }
          return whoAmI();
        },
      });
    },
  ];
}

async function signInPage(overrides: Partial<Server> = {}) {
  const [state, routes] = server(overrides);
  const app = createTestApp(routes);
  const view = renderApp(app, '/sign-in');
  await screen.findByRole('list', { name: 'Ways to sign in' });
  return { state, app, view };
}

describe('sign-in scheme list', () => {
  it('offers the union of both services: token form, single sign-on, and an unknown scheme disabled', async () => {
    const { state } = await signInPage();
    const offers = within(screen.getByRole('list', { name: 'Ways to sign in' })).getAllByRole(
      'listitem',
    );
    expect(offers).toHaveLength(3);

    const token = screen.getByLabelText('API token');
    expect(token.getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Sign in with API token' })).toBeTruthy();
    const sso = screen.getByRole('button', { name: 'Sign in with Single sign-on' });
    expect((sso as HTMLButtonElement).disabled).toBe(false);

    const unknown = screen.getByRole('button', { name: 'Sign in with Kerberos' });
    expect((unknown as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/does not support the "kerberos" sign-in scheme/)).toBeTruthy();

    // GetAuthScheme is asked of both services, without a credential.
    expect(state.schemeCalls).toHaveLength(2);
    expect(state.schemeCalls.every((h) => h.get('authorization') === null)).toBe(true);
  });

  it('says "API token" once: the card’s heading is the token field’s label', async () => {
    await signInPage({ backupSchemes: [bearerScheme], schemaSchemes: [] });
    const heading = screen.getByRole('heading', { name: 'API token' });
    expect(screen.getAllByText('API token')).toHaveLength(1);
    expect(heading.querySelector('label')?.htmlFor).toBe(screen.getByLabelText('API token').id);
  });

  it('offers nothing that is not advertised', async () => {
    await signInPage({ backupSchemes: [bearerScheme], schemaSchemes: [] });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /single sign-on/i })).toBeNull();
    expect(screen.getByLabelText('API token')).toBeTruthy();
  });

  it('offers no token form when bearer is not advertised', async () => {
    await signInPage({ backupSchemes: [], schemaSchemes: [oidcScheme] });
    expect(screen.queryByLabelText('API token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in with Single sign-on' })).toBeTruthy();
  });
});

describe('token form', () => {
  const submit = (value: string) => {
    fireEvent.change(screen.getByLabelText('API token'), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with API token' }));
  };

  it('says where a token comes from: the first npm start, then the token command', async () => {
    await signInPage();
    const hint = screen.getByTestId('token-source-hint');
    expect(hint.textContent).toContain('npm start');
    expect(within(hint).getByText(/^npm run token -- create --tenant/)).toBeTruthy();
  });

  it('refuses an empty token before any call', async () => {
    const { state } = await signInPage();
    submit('   ');
    expect(await screen.findByText('Enter an API token.')).toBeTruthy();
    expect(state.whoAmICalls).toHaveLength(0);
    expect(screen.getByLabelText('API token').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the server error when WhoAmI refuses the token, and keeps no session', async () => {
    const { state } = await signInPage();
    submit('bad-token');
    expect(
      await screen.findByText('Unauthenticated: credential refused: unknown token'),
    ).toBeTruthy();
    expect(state.whoAmICalls).toHaveLength(1);
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('accepts a token WhoAmI accepts, keeps it in sessionStorage only, and opens the console', async () => {
    await signInPage();
    submit('Bearer good-token');
    expect(await screen.findByText('Alice Admin')).toBeTruthy();

    const stored = JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as {
      token?: string;
      tenant?: string;
    };
    expect(stored).toMatchObject({ token: 'good-token', tenant: 'acme' });
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? '';
      expect(localStorage.getItem(key)).not.toContain('good-token');
    }
    expect(window.location.href).not.toContain('good-token');
  });
});
