import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreOperationPageSchema,
} from '@store/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bearerScheme, whoAmI } from '../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../testing/render-app';
import { SESSION_ENDED_NOTICE, SESSION_STORAGE_KEY } from '../session/session-store';

describe('session interceptor', () => {
  it('sends the credential as "<prefix> <token>" and the active tenant on every call', async () => {
    let seen: Headers | undefined;
    const app = createTestApp(
      (router) =>
        router.service(IdentityService, {
          whoAmI: (_req, ctx) => {
            seen = ctx.requestHeader;
            return whoAmI();
          },
        }),
      { session: testSession },
    );
    await app.services.api.identity.whoAmI({});
    expect(seen?.get('authorization')).toBe('Bearer secret-token-1');
    expect(seen?.get('store-active-tenant')).toBe('acme');
  });

  it('sends no credential to GetAuthScheme, which is exempt', async () => {
    let seen: Headers | undefined;
    const app = createTestApp(
      (router) =>
        router.service(SchemaControlService, {
          getAuthScheme: (_req, ctx) => {
            seen = ctx.requestHeader;
            return { schemes: [bearerScheme] };
          },
        }),
      { session: testSession },
    );
    await app.services.api.schema.getAuthScheme();
    expect(seen?.get('authorization')).toBeNull();
  });

  it('when a call with the session token is Unauthenticated, the session ends with a notice', async () => {
    const app = createTestApp(
      (router) =>
        router.service(IdentityService, {
          whoAmI: () => {
            throw new ConnectError('credential refused: expired', Code.Unauthenticated);
          },
        }),
      { session: testSession },
    );
    await expect(app.services.api.identity.whoAmI({})).rejects.toThrow();
    expect(app.services.session.getSnapshot()).toEqual({
      session: null,
      notice: SESSION_ENDED_NOTICE,
    });
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a refused candidate token (its own header) does not end the current session', async () => {
    const app = createTestApp(
      (router) =>
        router.service(IdentityService, {
          whoAmI: () => {
            throw new ConnectError('credential refused', Code.Unauthenticated);
          },
        }),
      { session: testSession },
    );
    await expect(
      app.services.api.identity.whoAmI({}, { headers: { authorization: 'Bearer other' } }),
    ).rejects.toThrow();
    expect(app.services.session.session).toEqual(testSession);
  });
});

describe('Unauthenticated anywhere in the console', () => {
  it('returns to sign-in with "Your session ended" and forgets the token', async () => {
    const refuse = () => {
      throw new ConnectError('credential refused: revoked', Code.Unauthenticated);
    };
    const app = createTestApp(
      (router) => {
        router.service(IdentityService, { whoAmI: () => whoAmI() });
        router.service(BackupControlService, {
          getAuthScheme: () => ({ schemes: [bearerScheme] }),
          listBackupOperations: refuse,
        });
        router.service(SchemaControlService, {
          listSchemaOperations: () => create(StoreOperationPageSchema, {}),
        });
      },
      { session: testSession },
    );
    const { router } = renderApp(app, '/operations?state=RUNNING');

    expect(await screen.findByText(SESSION_ENDED_NOTICE)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(await screen.findByLabelText('API token')).toBeTruthy();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(JSON.stringify(sessionStorage)).not.toContain(testSession.token);
  });
});

// The server answers an anonymous caller PermissionDenied (the authorizer's no) and keeps
// Unauthenticated for a refused credential: the console never depends on the former to sign in.
describe('PermissionDenied and the anonymous caller', () => {
  it('a PermissionDenied for the session token keeps the session: a refusal, not a sign-out', async () => {
    const app = createTestApp(
      (router) =>
        router.service(IdentityService, {
          whoAmI: () => {
            throw new ConnectError(
              'WhoAmI is not permitted for this caller',
              Code.PermissionDenied,
            );
          },
        }),
      { session: testSession },
    );
    await expect(app.services.api.identity.whoAmI({})).rejects.toThrow();
    expect(app.services.session.getSnapshot()).toEqual({ session: testSession, notice: null });
  });

  it('without a session no protected call is made: a signed-in route goes to sign-in', async () => {
    const protectedCalls: string[] = [];
    const app = createTestApp((router) => {
      router.service(IdentityService, {
        whoAmI: () => {
          protectedCalls.push('WhoAmI');
          throw new ConnectError('not permitted', Code.PermissionDenied);
        },
      });
      router.service(BackupControlService, {
        getAuthScheme: () => ({ schemes: [bearerScheme] }),
        listBackupOperations: () => {
          protectedCalls.push('ListBackupOperations');
          throw new ConnectError('not permitted', Code.PermissionDenied);
        },
      });
    });
    const { router } = renderApp(app, '/operations');
    expect(await screen.findByLabelText('API token')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(protectedCalls).toEqual([]);
  });
});
