import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupLifecycleService,
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const failure = { code: 'unavailable', message: 'artifact store did not answer' };

/** A server that knows some operations by id and starts new ones through the real start RPCs. */
function server(known: StoreOperationStatus[], role = 'admin') {
  const ops = new Map(known.map((op) => [op.operationId, op]));
  const started: { rpc: string; backupId?: string }[] = [];
  const begin = (kind: StoreOperationKind, targetId?: string) => {
    const op = operation({ operationId: `op-again-${started.length}`, kind, targetId });
    ops.set(op.operationId, op);
    return { operationId: op.operationId, kind };
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: [role] }] }),
    });
    router.service(BackupControlService, {
      getBackupOperationStatus: (req) => ({ status: ops.get(req.operationId) }),
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      startBackupHealthCheck: (req) => {
        started.push({ rpc: 'StartBackupHealthCheck', backupId: req.backupId });
        return begin(StoreOperationKind.BACKUP_HEALTH_CHECK, req.backupId);
      },
      startCatalogRebuild: () => {
        started.push({ rpc: 'StartCatalogRebuild' });
        return begin(StoreOperationKind.CATALOG_REBUILD);
      },
      describeBackup: (req) => ({
        found: true,
        manifest: { backupId: req.backupId, name: 'nightly', treeId: 'orders' },
      }),
    });
    router.service(SchemaControlService, {
      getSchemaOperationStatus: () => ({}),
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
    router.service(BackupLifecycleService, {
      getLifecycleOperationStatus: () => ({}),
      listLifecycleOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { started, app: createTestApp(routes, { session: testSession }) };
}

const runAgain = { name: 'Run again with the same settings' };

describe('run again with the same settings', () => {
  it('a failed health check starts a new one of the same backup and opens it', async () => {
    const failed = operation({
      operationId: 'op-hc',
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      state: StoreOperationState.FAILED,
      targetId: 'bk-7',
      error: failure,
    });
    const { started, app } = server([failed]);
    const { router } = renderApp(app, '/operations/op-hc');
    fireEvent.click(await screen.findByRole('button', runAgain));
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/op-again-1'));
    expect(started).toEqual([{ rpc: 'StartBackupHealthCheck', backupId: 'bk-7' }]);
    // The new one is followed like any start: the tray and a toast.
    expect(await screen.findAllByText('Started health check')).toHaveLength(1);
  });

  it('a failed catalog rebuild starts a rebuild again', async () => {
    const failed = operation({
      operationId: 'op-rb',
      kind: StoreOperationKind.CATALOG_REBUILD,
      state: StoreOperationState.FAILED,
      targetId: undefined,
      error: failure,
    });
    const { started, app } = server([failed]);
    renderApp(app, '/operations/op-rb');
    fireEvent.click(await screen.findByRole('button', runAgain));
    await waitFor(() => expect(started).toEqual([{ rpc: 'StartCatalogRebuild' }]));
  });

  it('is not offered where the status cannot rebuild the request, nor on success', async () => {
    const capture = operation({
      operationId: 'op-cap',
      kind: StoreOperationKind.BACKUP,
      state: StoreOperationState.FAILED,
      error: failure,
    });
    const restore = operation({
      operationId: 'op-rs',
      kind: StoreOperationKind.RESTORE,
      state: StoreOperationState.FAILED,
      targetId: 'bk-7',
      error: failure,
    });
    const fine = operation({
      operationId: 'op-ok',
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      state: StoreOperationState.SUCCEEDED,
      targetId: 'bk-7',
    });
    const { app } = server([capture, restore, fine]);
    for (const id of ['op-cap', 'op-rs', 'op-ok']) {
      const view = renderApp(app, `/operations/${id}`);
      expect(await screen.findByRole('heading', { name: 'Result' })).toBeTruthy();
      expect(screen.queryByRole('button', runAgain)).toBeNull();
      view.unmount();
    }
  });

  it('a viewer sees it disabled, with the role it needs', async () => {
    const failed = operation({
      operationId: 'op-hc',
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      state: StoreOperationState.FAILED,
      targetId: 'bk-7',
      error: failure,
    });
    const { started, app } = server([failed], 'viewer');
    renderApp(app, '/operations/op-hc');
    await waitFor(() =>
      expect(
        (screen.getByRole('button', runAgain) as HTMLButtonElement).disabled &&
          screen.queryByText(/operator/),
      ).toBeTruthy(),
    );
    expect(started).toEqual([]);
  });
});
