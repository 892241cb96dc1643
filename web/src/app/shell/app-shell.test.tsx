import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreOperationPageSchema,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../lib/session/session-store';
import { bearerScheme, whoAmI } from '../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../testing/render-app';

function server() {
  const tenantsSeen: (string | null)[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: (_req, ctx) => {
        const tenant = ctx.requestHeader.get('store-active-tenant');
        tenantsSeen.push(tenant);
        return whoAmI({
          tenants: [
            { tenantId: 'acme', roles: ['admin'] },
            { tenantId: 'beta', roles: ['viewer'] },
          ],
          activeTenant: tenant ?? 'acme',
        });
      },
    });
    router.service(BackupControlService, {
      getAuthScheme: () => ({ schemes: [bearerScheme] }),
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { tenantsSeen, routes };
}

describe('app shell', () => {
  it('shows who is signed in, how, and their roles in the active tenant', async () => {
    const { routes } = server();
    renderApp(createTestApp(routes, { session: testSession }), '/');
    expect(await screen.findByText('Alice Admin')).toBeTruthy();
    expect(screen.getByText('via API token · admin')).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Backups',
      'Operations',
      'Schedules',
      'Schedule overview',
      'Health',
      'Trees',
      'Schema',
      'Maintenance',
      'Notifications',
      'Audit',
    ]);
  });

  it('the dark-theme toggle says its state in words and in aria-pressed (issue 33)', async () => {
    const { routes } = server();
    renderApp(createTestApp(routes, { session: testSession }), '/');
    const toggle = await screen.findByRole('button', { name: 'Dark theme' });
    const before = toggle.getAttribute('aria-pressed') === 'true';
    expect(toggle.textContent).toContain(`Dark theme: ${before ? 'on' : 'off'}`);
    fireEvent.click(toggle);
    const after = screen.getByRole('button', { name: 'Dark theme' });
    expect(after.getAttribute('aria-pressed')).toBe(String(!before));
    expect(after.textContent).toContain(`Dark theme: ${before ? 'off' : 'on'}`);
  });

  it('switching tenant sends the new tenant header, keeps it in sessionStorage and refetches', async () => {
    const { routes, tenantsSeen } = server();
    renderApp(createTestApp(routes, { session: testSession }), '/');
    const select = (await screen.findByLabelText('Tenant')) as HTMLSelectElement;
    expect(select.value).toBe('acme');

    fireEvent.change(select, { target: { value: 'beta' } });
    await waitFor(() => expect(tenantsSeen.at(-1)).toBe('beta'));
    expect(await screen.findByText('via API token · viewer')).toBeTruthy();
    // The audit trail is for admins: a viewer of beta is not offered it.
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.queryByRole('link', { name: 'Audit' })).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({
      tenant: 'beta',
    });
  });

  it('sign-out clears sessionStorage and returns to sign-in', async () => {
    const { routes } = server();
    const { router } = renderApp(createTestApp(routes, { session: testSession }), '/operations');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByLabelText('API token')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(sessionStorage.length).toBe(0);
  });

  it('a signed-out visit to a page signs in first, then lands on that page', async () => {
    const { routes } = server();
    const { router } = renderApp(createTestApp(routes), '/operations?state=FAILED');
    fireEvent.change(await screen.findByLabelText('API token'), { target: { value: 'tok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with API token' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations'));
    expect(router.state.location.search).toBe('?state=FAILED');
  });
});
