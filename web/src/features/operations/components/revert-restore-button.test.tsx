import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreBackupApiOperation,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  StoreRestoreMode,
  type backupV1,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const restoreResult = {
  backupId: 'bk-1',
  targetTreeId: 'orders',
  mode: StoreRestoreMode.IN_PLACE,
  operationId: 'rs-1',
  manifestChain: ['bk-0', 'bk-1'],
  entriesApplied: 12n,
  previousPhysicalTreeId: 'pt-old',
  deadLetteredCrossTenant: 0n,
  deadLetteredOverQuota: 0n,
};

function server(refuse: boolean, mode = StoreRestoreMode.IN_PLACE) {
  const reverts: backupV1.RestoreResponse[] = [];
  const restore = operation({
    operationId: 'op-r',
    kind: StoreOperationKind.RESTORE,
    state: StoreOperationState.SUCCEEDED,
    result: { case: 'restore', value: { ...restoreResult, mode } },
  });
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      getBackupOperationStatus: () => ({ status: restore }),
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      probeCapabilities: () => ({
        treeId: 'orders',
        allowedOperations: [StoreBackupApiOperation.REVERT_RESTORE],
      }),
      revertRestore: (request) => {
        reverts.push(request);
        if (refuse)
          throw new ConnectError('the restore was already reverted', Code.FailedPrecondition);
        return {};
      },
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { reverts, app: createTestApp(routes, { session: testSession }) };
}

async function openRevert() {
  const button = await waitFor(() => {
    const found = screen.getByRole('button', { name: 'Revert restore' }) as HTMLButtonElement;
    expect(found.disabled).toBe(false);
    return found;
  });
  fireEvent.click(button);
  return screen.getByRole('dialog');
}

describe('revert of a finished in-place restore', () => {
  it('confirms naming tenant and tree, then sends the stored restore result back', async () => {
    const { app, reverts } = server(false);
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    expect(dialog.textContent).toContain('acme');
    expect(dialog.textContent).toContain('orders');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revert restore' }));
    expect(await screen.findByText(/Reverted: tree/)).toBeTruthy();
    expect(reverts).toHaveLength(1);
    expect(reverts[0]).toMatchObject({
      backupId: 'bk-1',
      targetTreeId: 'orders',
      mode: StoreRestoreMode.IN_PLACE,
      operationId: 'rs-1',
      manifestChain: ['bk-0', 'bk-1'],
      entriesApplied: 12n,
      previousPhysicalTreeId: 'pt-old',
    });
  });

  it('shows the server’s refusal in the confirmation', async () => {
    const { app } = server(true);
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revert restore' }));
    expect(
      await within(dialog).findByText('FailedPrecondition: the restore was already reverted'),
    ).toBeTruthy();
  });

  it('is not offered for a shadow restore', async () => {
    const { app } = server(false, StoreRestoreMode.SHADOW);
    renderApp(app, '/operations/op-r');
    expect(await screen.findByText('Into a shadow tree (no swap)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revert restore' })).toBeNull();
  });
});
