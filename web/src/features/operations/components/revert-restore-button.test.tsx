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

/**
 * The server's answers: the restore to revert, its revert previews, and RevertRestore. The tree's
 * sequence mark starts at `treeSequence`; `writeBetween` writes once more to a key already
 * counted after the first preview (the count stays, the mark moves), and RevertRestore refuses
 * an acknowledgment whose mark is not the tree's, as the server does.
 */
function server(
  options: {
    refuse?: boolean;
    mode?: StoreRestoreMode;
    writesSinceRestore?: bigint;
    writeBetween?: boolean;
  } = {},
) {
  const { refuse = false, mode = StoreRestoreMode.IN_PLACE, writesSinceRestore = 0n } = options;
  const reverts: backupV1.RestoreResponse[] = [];
  const previews: string[] = [];
  let treeSequence = 40n;
  /** The mark each preview read, by its operation id. */
  const previewed = new Map<string, bigint>();
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
        if (request.acknowledgedThroughSequence !== treeSequence) {
          throw new ConnectError(
            'tree orders was written since the preview; preview the revert again',
            Code.FailedPrecondition,
          );
        }
        return {};
      },
    });
    router.service(BackupInsightService, {
      startRevertPreview: (request) => {
        previews.push(request.restoreOperationId);
        const operationId = `op-p${previews.length}`;
        previewed.set(operationId, treeSequence);
        // The write lands after the first preview read the tree.
        if (options.writeBetween && previews.length === 1) treeSequence += 1n;
        return { operationId, kind: StoreOperationKind.REVERT_PREVIEW };
      },
      getBackupInsightOperationStatus: ({ operationId }) => ({
        status: { ...preview, operationId },
      }),
      getBackupComparison: ({ operationId }) => ({
        report: {
          operationId,
          kind: BackupComparisonKind.REVERT_PREVIEW,
          treeId: 'orders',
          restoreOperationId: 'rs-1',
          writesSinceRestore,
          treeSequence: previewed.get(operationId) ?? 0n,
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
    // Even with none, the preview's mark goes along: a write after it refuses the revert.
    expect(reverts[0]?.acknowledgedWritesSinceRestore).toBe(0n);
    expect(reverts[0]?.acknowledgedThroughSequence).toBe(40n);
  });

  it('with writes since the restore, the confirm needs the acknowledgment and sends its count and mark', async () => {
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
    expect(reverts[0]?.acknowledgedThroughSequence).toBe(40n);
  });

  it('refused because the tree was written since the preview, it previews again and reverts with the new mark', async () => {
    const { app, reverts, previews } = server({ writesSinceRestore: 1n, writeBetween: true });
    renderApp(app, '/operations/op-r');
    const dialog = await openRevert();
    fireEvent.click(
      await within(dialog).findByLabelText('Discard the 1 write made since the restore'),
    );
    fireEvent.click(confirmButton(dialog, 'Revert and discard 1 write'));
    expect(
      await within(dialog).findByText(
        'FailedPrecondition: tree orders was written since the preview; preview the revert again',
      ),
    ).toBeTruthy();
    expect(reverts[0]).toMatchObject({
      acknowledgedWritesSinceRestore: 1n,
      acknowledgedThroughSequence: 40n,
    });

    fireEvent.click(confirmButton(dialog, 'Preview again'));
    await waitFor(() => expect(previews).toEqual(['rs-1', 'rs-1']));
    // The acknowledgment is asked again for the new preview.
    const discard = (await within(dialog).findByLabelText(
      'Discard the 1 write made since the restore',
    )) as HTMLInputElement;
    expect(discard.checked).toBe(false);
    fireEvent.click(discard);
    fireEvent.click(confirmButton(dialog, 'Revert and discard 1 write'));
    expect(await screen.findByText(/Reverted: tree/)).toBeTruthy();
    expect(reverts[1]).toMatchObject({
      acknowledgedWritesSinceRestore: 1n,
      acknowledgedThroughSequence: 41n,
    });
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
