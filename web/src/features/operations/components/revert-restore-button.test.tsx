import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  BackupComparisonKind,
  BackupControlService,
  BackupDifferenceChange,
  BackupInsightService,
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

/** The server's answers: the restore to revert, its revert preview, and RevertRestore. */
function server(
  options: { refuse?: boolean; mode?: StoreRestoreMode; writesSinceRestore?: bigint } = {},
) {
  const { refuse = false, mode = StoreRestoreMode.IN_PLACE, writesSinceRestore = 0n } = options;
  const reverts: backupV1.RestoreResponse[] = [];
  const previews: string[] = [];
  const restore = operation({
    operationId: 'op-r',
    kind: StoreOperationKind.RESTORE,
    state: StoreOperationState.SUCCEEDED,
    result: { case: 'restore', value: { ...restoreResult, mode } },
  });
  const preview = operation({
    operationId: 'op-p',
    kind: StoreOperationKind.REVERT_PREVIEW,
    state: StoreOperationState.SUCCEEDED,
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
    router.service(BackupInsightService, {
      startRevertPreview: (request) => {
        previews.push(request.restoreOperationId);
        return { operationId: 'op-p', kind: StoreOperationKind.REVERT_PREVIEW };
      },
      getBackupInsightOperationStatus: () => ({ status: preview }),
      getBackupComparison: () => ({
        report: {
          operationId: 'op-p',
          kind: BackupComparisonKind.REVERT_PREVIEW,
          treeId: 'orders',
          restoreOperationId: 'rs-1',
          writesSinceRestore,
          counts: { added: 0n, changed: 1n, removed: writesSinceRestore, unchanged: 4n },
        },
      }),
      listBackupDifferences: () => ({
        differences: [
          {
            key: 'fixed-letter',
            change: BackupDifferenceChange.REMOVED,
            beforeJson: '{"ok":true}',
          },
        ],
      }),
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { reverts, previews, app: createTestApp(routes, { session: testSession }) };
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

const confirmButton = (dialog: HTMLElement, name: string | RegExp) =>
  within(dialog).getByRole('button', { name }) as HTMLButtonElement;

describe('revert of a finished in-place restore', () => {
  it('previews the revert, says no writes are discarded, then sends the stored restore result back', async () => {
    const { app, reverts, previews } = server();
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    expect(dialog.textContent).toContain('acme');
    expect(dialog.textContent).toContain('orders');
    expect(await within(dialog).findByText(/No writes since the restore/)).toBeTruthy();
    expect(previews).toEqual(['rs-1']);
    expect(dialog.textContent).not.toContain('refused by the server');
    fireEvent.click(confirmButton(dialog, 'Revert restore'));
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
    expect(reverts[0]?.acknowledgedWritesSinceRestore).toBeUndefined();
  });

  it('with writes since the restore, the confirm needs the acknowledgment and sends its count', async () => {
    const { app, reverts } = server({ writesSinceRestore: 3n });
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    const warning = await within(dialog).findByTestId('revert-writes');
    expect(warning.textContent).toContain('3 writes made since the restore will be discarded.');
    expect(await within(dialog).findByText('fixed-letter')).toBeTruthy();
    const confirm = confirmButton(dialog, 'Revert and discard 3 writes');
    expect(confirm.disabled).toBe(true);
    fireEvent.click(within(dialog).getByLabelText('Discard the 3 writes made since the restore'));
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(await screen.findByText(/Reverted: tree/)).toBeTruthy();
    expect(reverts[0]?.acknowledgedWritesSinceRestore).toBe(3n);
  });

  it('shows the server’s refusal in the confirmation', async () => {
    const { app } = server({ refuse: true });
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    await within(dialog).findByText(/No writes since the restore/);
    fireEvent.click(confirmButton(dialog, 'Revert restore'));
    expect(
      await within(dialog).findByText('FailedPrecondition: the restore was already reverted'),
    ).toBeTruthy();
    expect(confirmButton(dialog, 'Preview again')).toBeTruthy();
  });

  it('is not offered for a shadow restore', async () => {
    const { app } = server({ mode: StoreRestoreMode.SHADOW });
    renderApp(app, '/operations/op-r');
    expect(await screen.findByText('Into a shadow tree (no swap)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revert restore' })).toBeNull();
  });
});
