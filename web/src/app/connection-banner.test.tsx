import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreOperationPageSchema,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../testing/fixtures';
import { createTestApp, pluggableNetwork, renderApp, testSession } from '../testing/render-app';

/** A server with one backup running (started a minute ago, a tenth done), and its probe call. */
function server(refuse?: ConnectError) {
  const now = Date.now();
  const state: { op: StoreOperationStatus } = {
    op: operation({
      operationId: 'op-gone',
      targetId: 'orders',
      startedAt: timestampFromMs(now - 60_000),
      updatedAt: timestampFromMs(now),
      progress: { done: 10n, total: 100n, unit: 'entries', message: 'copying' },
    }),
  };
  const listed = (req: { states: StoreOperationState[] }) => {
    if (refuse) throw refuse;
    return create(StoreOperationPageSchema, {
      operations: req.states.length === 0 || req.states.includes(state.op.state) ? [state.op] : [],
    });
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      getAuthScheme: () => ({ schemes: [] }),
      listBackupOperations: listed,
      getBackupOperationStatus: () => ({ status: state.op }),
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
      getSchemaOperationStatus: () => ({}),
    });
  };
  return { state, routes };
}

const tray = () => screen.getByRole('complementary', { name: 'Operations tray' });
const bannerText = () =>
  screen.queryAllByRole('status').find((el) => el.textContent?.includes("Can't reach"));

describe('the console when the server is gone', () => {
  it(
    'shows one banner since when, keeps the data, shows running work as unknown, and recovers by itself',
    { timeout: 10_000 },
    async () => {
      const { state, routes } = server();
      const network = pluggableNetwork();
      const app = createTestApp(routes, { session: testSession, network: [network.interceptor] });
      renderApp(app, '/operations');
      // The operations page and the tray show the running backup, with a time left.
      expect(
        await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
      ).toBeTruthy();
      fireEvent.click(within(tray()).getByRole('button', { name: /^Operations:/ }));
      const trayBar = within(tray()).getByRole('progressbar');
      expect(trayBar.getAttribute('aria-valuetext')).toMatch(/left/);
      expect(bannerText()).toBeUndefined();

      network.down = true;
      const before = new Date();
      // Refetch held until the server is back: not awaited.
      act(() => void app.queryClient.refetchQueries());
      await waitFor(() => expect(bannerText()).toBeTruthy());
      const shown = bannerText();
      expect(shown).toBeTruthy();
      expect(shown?.textContent).toContain("Can't reach the server since");
      expect(shown?.textContent).toContain('(your time) — retrying');
      const time = within(shown as HTMLElement).getByText(/\d/, { selector: 'time' });
      const since = new Date(time.getAttribute('datetime') ?? '');
      expect(since.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);

      // The last data stays: the row on the page, the item in the tray; no error replaces them,
      // and no toast blames the server.
      expect(screen.getAllByText('op-gone').length).toBeGreaterThan(0);
      expect(screen.queryByText(/did not explain/)).toBeNull();
      expect(screen.queryByText(/could not be refreshed/)).toBeNull();
      // The toasts' live region stays empty; no error banner either.
      expect(screen.queryAllByRole('alert').map((el) => el.textContent)).toEqual(['']);
      // Running work: its state and its time left are unknown now.
      expect(within(tray()).getByText('Unknown — server unreachable')).toBeTruthy();
      const unknownBar = within(tray()).getByRole('progressbar');
      expect(unknownBar.getAttribute('aria-valuetext')).toMatch(/^unknown — server unreachable/);
      expect(unknownBar.getAttribute('aria-valuetext')).not.toMatch(/left|\/s/);
      expect(
        within(tray()).getByRole('button', { name: /Operations: 1 running when last seen/ }),
      ).toBeTruthy();
      expect(screen.getByText(/Not updating while the server cannot be reached/)).toBeTruthy();

      // The server comes back with the backup finished: the banner goes and the page refreshes,
      // with nothing clicked (the store's next try, a second after the failure).
      state.op = { ...state.op, state: StoreOperationState.SUCCEEDED };
      network.down = false;
      expect(
        await within(tray()).findByRole(
          'button',
          { name: 'Operations: 0 running, 1 finished' },
          { timeout: 5_000 },
        ),
      ).toBeTruthy();
      expect(bannerText()).toBeUndefined();
      expect(within(tray()).queryByText('Unknown — server unreachable')).toBeNull();
      expect(app.services.connectivity.reachable).toBe(true);
    },
  );

  it('a refusal from the server is not "unreachable": no banner, the error shows as before', async () => {
    const { routes } = server(new ConnectError('not permitted', Code.PermissionDenied));
    const app = createTestApp(routes, { session: testSession });
    renderApp(app, '/operations');
    expect((await screen.findAllByRole('alert')).length).toBeGreaterThan(0);
    expect(bannerText()).toBeUndefined();
    expect(app.services.connectivity.reachable).toBe(true);
  });

  it('the banner offers a try at once', async () => {
    const { routes } = server();
    const network = pluggableNetwork();
    const app = createTestApp(routes, { session: testSession, network: [network.interceptor] });
    renderApp(app, '/operations');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
    ).toBeTruthy();
    network.down = true;
    act(() => void app.queryClient.refetchQueries());
    await waitFor(() => expect(bannerText()).toBeTruthy());
    network.down = false;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(bannerText()).toBeUndefined();
  });
});
