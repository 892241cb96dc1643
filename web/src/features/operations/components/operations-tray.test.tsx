import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupHealthReportSchema,
  BackupHealthStatus,
  BackupLifecycleService,
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  StoreRetentionApplyResultSchema,
  type StoreOperationStatus,
} from '@store/contract';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { TRAY_STORAGE_KEY } from '../../../lib/operations/tracked-operations-store';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession, wrapperFor } from '../../../testing/render-app';

/** A server whose one operation (a backup's, or a retention apply) runs until the test finishes it. */
function server(op: StoreOperationStatus, family: 'backup' | 'lifecycle' = 'backup') {
  const state = { op };
  const listed = (req: { states: StoreOperationState[] }) =>
    create(StoreOperationPageSchema, {
      operations: req.states.includes(state.op.state) ? [state.op] : [],
    });
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(
      BackupControlService,
      family === 'backup'
        ? { listBackupOperations: listed, getBackupOperationStatus: () => ({ status: state.op }) }
        : { listBackupOperations: () => create(StoreOperationPageSchema, {}) },
    );
    if (family === 'lifecycle') {
      router.service(BackupLifecycleService, {
        listLifecycleOperations: listed,
        getLifecycleOperationStatus: () => ({ status: state.op }),
      });
    }
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
      getSchemaOperationStatus: () => ({}),
    });
  };
  return { state, routes };
}

const tray = () => screen.getByRole('complementary', { name: 'Operations tray' });

const pill = () => within(tray()).getByRole('button', { name: /^Operations:/ });

describe('operations tray', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a pill naming what runs, opens as a sheet, keeps finished ones until dismissed, across a reload', async () => {
    const { state, routes } = server(operation({ operationId: 'op-t', targetId: 'orders' }));
    const app = createTestApp(routes, { session: testSession });
    const first = renderApp(app, '/');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
    ).toBeTruthy();
    // Not a wide screen (the test window): collapsed, covering nothing, until opened.
    expect(tray().className).toContain('tray--pill');
    expect(within(tray()).queryByRole('progressbar')).toBeNull();
    fireEvent.click(pill());
    expect(tray().className).toContain('tray--sheet');
    expect(within(tray()).getByRole('progressbar')).toBeTruthy();

    state.op = { ...state.op, state: StoreOperationState.SUCCEEDED };
    await act(() => app.queryClient.invalidateQueries());
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 0 running, 1 finished' }),
    ).toBeTruthy();
    expect(within(tray()).getByText('Succeeded')).toBeTruthy();
    expect(await screen.findByText('Backup succeeded')).toBeTruthy();
    expect(sessionStorage.getItem(TRAY_STORAGE_KEY)).toContain('op-t');

    // A reload: a new app from the same sessionStorage still shows it.
    first.unmount();
    const reloaded = createTestApp(routes);
    renderApp(reloaded, '/');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 0 running, 1 finished' }),
    ).toBeTruthy();

    fireEvent.click(pill());
    fireEvent.click(await within(tray()).findByRole('button', { name: /Dismiss Backup op-t/ }));
    expect(await within(tray()).findByText('Nothing running in tenant acme.')).toBeTruthy();
    expect(sessionStorage.getItem(TRAY_STORAGE_KEY)).not.toContain('op-t');
    fireEvent.keyDown(pill(), { key: 'Escape' });
    expect(pill().getAttribute('aria-expanded')).toBe('false');
  });

  it('on a wide screen docks beside the page while something runs, and is a pill otherwise', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('min-width'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const { state, routes } = server(operation({ operationId: 'op-w', targetId: 'orders' }));
    const app = createTestApp(routes, { session: testSession });
    renderApp(app, '/');
    expect(await within(tray()).findByRole('progressbar')).toBeTruthy();
    expect(tray().className).toContain('tray--docked');

    // Collapsed by hand, it stays a pill.
    fireEvent.click(pill());
    expect(tray().className).toContain('tray--pill');
    expect(within(tray()).queryByRole('progressbar')).toBeNull();
    state.op = { ...state.op, state: StoreOperationState.SUCCEEDED };
    await act(() => app.queryClient.invalidateQueries());
    // Collapsed, it still announces the end.
    expect(await screen.findByText('Backup succeeded')).toBeTruthy();
  });

  it('says what a finished retention apply deleted, in the tray and in its toast', async () => {
    const { state, routes } = server(
      operation({
        operationId: 'op-ret',
        kind: StoreOperationKind.RETENTION_APPLY,
        targetId: 'inventory',
        progress: { done: 1n, total: 3n, unit: 'backups' },
      }),
      'lifecycle',
    );
    const app = createTestApp(routes, { session: testSession });
    renderApp(app, '/');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
    ).toBeTruthy();
    fireEvent.click(pill());
    state.op = {
      ...state.op,
      state: StoreOperationState.SUCCEEDED,
      result: {
        case: 'retentionApply',
        value: create(StoreRetentionApplyResultSchema, {
          scope: { treeId: 'inventory' },
          deletedCount: 3n,
          bytesFreed: 3n * 1024n * 1024n,
          keptCount: 7n,
        }),
      },
    };
    await act(() => app.queryClient.invalidateQueries());
    const brief = 'Deleted 3 backups, 3.0 MiB freed; 7 kept';
    expect(await within(tray()).findByText(brief)).toBeTruthy();
    const toast = (await screen.findByText('Retention apply succeeded')).closest('[role]');
    expect(toast?.textContent).toContain(brief);
  });
  it('shows a health check that succeeded but found the backup corrupt as a warning, never green', async () => {
    const { state, routes } = server(
      operation({
        operationId: 'op-hc',
        kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
        targetId: 'b-7',
      }),
    );
    const app = createTestApp(routes, { session: testSession });
    renderApp(app, '/');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
    ).toBeTruthy();
    fireEvent.click(pill());
    state.op = {
      ...state.op,
      state: StoreOperationState.SUCCEEDED,
      result: {
        case: 'healthReport',
        value: create(BackupHealthReportSchema, {
          backupId: 'b-7',
          status: BackupHealthStatus.CORRUPT,
          issues: [{ problem: 'checksum_mismatch', artifactId: 'b-7' }],
        }),
      },
    };
    await act(() => app.queryClient.invalidateQueries());
    const badge = await within(tray()).findByText('Succeeded — corrupt');
    expect(badge.className).toContain('badge--warning');
    expect(within(tray()).queryByText('Succeeded')).toBeNull();
    const toast = (await screen.findByText('Health check succeeded — corrupt')).closest('.toast');
    expect(toast?.className).toContain('toast--warning');
  });
});

describe('operations tray and automatic retention', () => {
  it('shows an automatic retention apply that began and ended between two polls, with its result: a stopped one as a warning saying why', async () => {
    const stopped = operation({
      operationId: 'op-auto',
      kind: StoreOperationKind.RETENTION_APPLY,
      state: StoreOperationState.SUCCEEDED,
      targetId: 'inventory',
      createdBy: 'retention',
      result: {
        case: 'retentionApply',
        value: create(StoreRetentionApplyResultSchema, {
          scope: { treeId: 'inventory' },
          keptCount: 4n,
          afterScheduledCapture: true,
          stoppedReason:
            'Stopped, nothing deleted: the rules would have deleted “full 3”, the newest backup of tree inventory a health check found healthy. Verify the newer backups, or preview and apply by hand.',
          scheduledCapture: { backupName: 'inventory nightly', incremental: false },
        }),
      },
    });
    // Before the console opened: not news.
    const earlier = operation({
      operationId: 'op-earlier',
      kind: StoreOperationKind.RETENTION_APPLY,
      state: StoreOperationState.SUCCEEDED,
      createdBy: 'retention',
    });
    const recent = [earlier];
    let recentAsked = 0;
    const page = (operations: StoreOperationStatus[]) =>
      create(StoreOperationPageSchema, { operations });
    const routes = (router: ConnectRouter) => {
      router.service(IdentityService, { whoAmI: () => whoAmI() });
      router.service(BackupControlService, { listBackupOperations: () => page([]) });
      router.service(SchemaControlService, { listSchemaOperations: () => page([]) });
      router.service(BackupLifecycleService, {
        // The running list never sees it (it was never running at a poll); the recent one does.
        listLifecycleOperations: (req) => {
          if (req.states.length > 0) return page([]);
          recentAsked += 1;
          return page(recent);
        },
        getLifecycleOperationStatus: (req) => ({
          status: recent.find((op) => op.operationId === req.operationId),
        }),
      });
    };
    const app = createTestApp(routes, { session: testSession });
    renderApp(app, '/');
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 0 running' }),
    ).toBeTruthy();
    await waitFor(() => expect(recentAsked).toBeGreaterThan(0));
    await act(async () => {});
    recent.unshift(stopped);
    await act(() => app.queryClient.invalidateQueries());
    const toast = (
      await screen.findByText('Retention apply succeeded — stopped, nothing deleted')
    ).closest('.toast');
    expect(toast?.className).toContain('toast--warning');
    expect(toast?.textContent).toContain('the newest backup of tree inventory');
    fireEvent.click(pill());
    expect(await within(tray()).findByText('Succeeded — stopped, nothing deleted')).toBeTruthy();
    expect(app.services.tracked.getSnapshot().map((e) => e.operationId)).toEqual(['op-auto']);
  });
});

describe('useTrackOperation', () => {
  it('adds the started operation to the tray and toasts "Started <kind>" with a link', () => {
    const app = createTestApp(() => {}, { session: testSession });
    const { result } = renderHook(() => useTrackOperation(), { wrapper: wrapperFor(app) });
    act(() => result.current({ operationId: 'op-9', kind: StoreOperationKind.INCREMENTAL_BACKUP }));

    expect(app.services.tracked.getSnapshot()).toEqual([
      {
        tenant: 'acme',
        operationId: 'op-9',
        kind: StoreOperationKind.INCREMENTAL_BACKUP,
        family: 'backup',
      },
    ]);
    expect(app.services.toasts.getSnapshot()).toMatchObject([
      {
        tone: 'info',
        title: 'Started incremental backup',
        link: { to: '/operations/op-9', label: 'View progress' },
      },
    ]);
  });
});
