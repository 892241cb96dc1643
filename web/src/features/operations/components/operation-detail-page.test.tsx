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
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

function server(ops: {
  backup?: StoreOperationStatus;
  schema?: StoreOperationStatus;
  lifecycle?: StoreOperationStatus;
}) {
  const calls = { backupStatus: 0, schemaStatus: 0, cancel: [] as string[] };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      getBackupOperationStatus: () => {
        calls.backupStatus++;
        return { status: ops.backup };
      },
      cancelBackupOperation: (req) => {
        calls.cancel.push(req.operationId);
        return { status: { ...ops.backup!, cancelRequested: true } };
      },
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      describeBackup: (req) => ({
        found: true,
        manifest: { backupId: req.backupId, name: 'nightly orders', treeId: 'orders' },
      }),
    });
    router.service(SchemaControlService, {
      getSchemaOperationStatus: () => {
        calls.schemaStatus++;
        return { status: ops.schema };
      },
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
    router.service(BackupLifecycleService, {
      getLifecycleOperationStatus: () => ({ status: ops.lifecycle }),
      listLifecycleOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

describe('operation detail', () => {
  it('shows progress and, for a finished backup, links to the backup it made', async () => {
    const done = operation({
      operationId: 'op-b',
      state: StoreOperationState.SUCCEEDED,
      result: { case: 'capture', value: { backupId: 'bk-42' } },
    });
    const { app } = server({ backup: done });
    renderApp(app, '/operations/op-b');
    const link = await screen.findByRole('link', { name: 'bk-42' });
    expect(link.getAttribute('href')).toBe('/backups/bk-42');
    expect(screen.getByRole('progressbar', { name: 'Backup progress' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel operation' })).toBeNull();
  });

  it('for a restore, names the target tree and the entries applied', async () => {
    const restore = operation({
      operationId: 'op-r',
      kind: StoreOperationKind.RESTORE,
      state: StoreOperationState.SUCCEEDED,
      result: {
        case: 'restore',
        value: { backupId: 'bk-1', targetTreeId: 'orders-copy', entriesApplied: 1234n },
      },
    });
    const { app } = server({ backup: restore });
    renderApp(app, '/operations/op-r');
    const tree = await screen.findByRole('link', { name: 'orders-copy' });
    expect(tree.getAttribute('href')).toBe('/trees/orders-copy');
    expect(screen.getByText((1234).toLocaleString())).toBeTruthy();
    // The backup it read, by name, its id copyable.
    const result = screen.getByRole('region', { name: 'Result' });
    const from = await within(result).findByRole('link', { name: 'nightly orders' });
    expect(from.getAttribute('href')).toBe('/backups/bk-1');
    expect(within(result).getByRole('button', { name: 'Copy backup id bk-1' })).toBeTruthy();
  });

  it('for a retention apply, names its scope and what it deleted (by name, the ids copyable) and kept', async () => {
    const apply = operation({
      operationId: 'op-ret',
      kind: StoreOperationKind.RETENTION_APPLY,
      state: StoreOperationState.SUCCEEDED,
      targetId: 'inventory',
      result: {
        case: 'retentionApply',
        value: {
          scope: { treeId: 'inventory', keyPrefix: 'sku/' },
          deletedCount: 2n,
          bytesFreed: 3072n,
          keptCount: 4n,
          deletedElsewhereCount: 1n,
          deleted: [
            { backupId: 'bk-inc', name: 'inventory incremental 2026-11-01', byteSize: 1024n },
            { backupId: 'bk-full', name: 'inventory full 2026-10-31', byteSize: 2048n },
          ],
          afterScheduledCapture: true,
        },
      },
    });
    const { app } = server({ lifecycle: apply });
    renderApp(app, '/operations/op-ret');
    const summary = await screen.findByTestId('retention-apply-summary');
    expect(summary.textContent).toContain('2 backups, 3.0 KiB freed');
    expect(summary.textContent).toContain('4 backups');
    expect(summary.textContent).toContain('run by itself after a scheduled capture');
    expect(summary.textContent).toContain('1 planned backup was deleted by another apply');
    expect(within(summary).getByText('inventory incremental 2026-11-01')).toBeTruthy();
    expect(within(summary).getByText('inventory full 2026-10-31')).toBeTruthy();
    expect(within(summary).getByRole('button', { name: 'Copy backup id bk-full' })).toBeTruthy();
    expect(
      within(summary).getByRole('link', { name: 'Retention rules' }).getAttribute('href'),
    ).toBe('/retention?tree=inventory&prefix=sku%2F');
  });

  it('for an automatic retention apply that stopped, says why, which scheduled capture it followed, and that nothing was deleted', async () => {
    const reason =
      'Stopped, nothing deleted: the rules would have deleted 3 of the 4 usable backups of tree inventory (75 %), more than the 50 % an automatic apply may delete. Preview and apply by hand to delete them.';
    const apply = operation({
      operationId: 'op-stop',
      kind: StoreOperationKind.RETENTION_APPLY,
      state: StoreOperationState.SUCCEEDED,
      targetId: 'inventory',
      createdBy: 'retention',
      result: {
        case: 'retentionApply',
        value: {
          scope: { treeId: 'inventory' },
          keptCount: 4n,
          afterScheduledCapture: true,
          stoppedReason: reason,
          scheduledCapture: { backupName: 'inventory 2026-11-27 21:00', incremental: true },
        },
      },
    });
    const { app } = server({ lifecycle: apply });
    renderApp(app, '/operations/op-stop');
    const summary = await screen.findByTestId('retention-apply-summary');
    expect(within(summary).getByTestId('retention-stopped-reason').textContent).toBe(reason);
    expect(summary.textContent).toContain(
      'run by itself after the scheduled incremental capture “inventory 2026-11-27 21:00”',
    );
    expect(summary.textContent).toContain('0 backups, 0 B freed');
    expect(
      (await screen.findAllByText('Succeeded — stopped, nothing deleted')).length,
    ).toBeGreaterThan(0);
  });

  it("names a running restore's target tree: the one its request named, else its backup's tree", async () => {
    const running = (operationId: string, targetTreeId?: string) =>
      operation({
        operationId,
        kind: StoreOperationKind.RESTORE,
        targetId: 'bk-7',
        targetTreeId,
        progress: { done: 10n, total: 40n, unit: 'entries' },
      });
    const named = server({ backup: running('op-n', 'orders-copy') });
    const first = renderApp(named.app, '/operations/op-n');
    const copy = await screen.findByRole('link', { name: 'tree orders-copy' });
    expect(copy.getAttribute('href')).toBe('/trees/orders-copy');
    expect(await screen.findByRole('link', { name: 'nightly orders' })).toBeTruthy();
    first.unmount();

    const inPlace = server({ backup: running('op-i') });
    renderApp(inPlace.app, '/operations/op-i');
    const own = await screen.findByRole('link', { name: 'tree orders' });
    expect(own.getAttribute('href')).toBe('/trees/orders');
  });

  it('names the backups of a health check and of a backup set by name, their ids copyable', async () => {
    const check = operation({
      operationId: 'op-h',
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      state: StoreOperationState.SUCCEEDED,
      targetId: 'bk-h',
      result: { case: 'healthReport', value: { backupId: 'bk-h' } },
    });
    const first = renderApp(server({ backup: check }).app, '/operations/op-h');
    const result = () => screen.getByRole('region', { name: 'Result' });
    await screen.findByRole('heading', { name: /^Status/ });
    expect(
      (await within(result()).findByRole('link', { name: 'nightly orders' })).getAttribute('href'),
    ).toBe('/backups/bk-h');
    expect(within(result()).getByRole('button', { name: 'Copy backup id bk-h' })).toBeTruthy();
    first.unmount();

    const set = operation({
      operationId: 'op-set',
      kind: StoreOperationKind.BACKUP_SET,
      state: StoreOperationState.SUCCEEDED,
      result: {
        case: 'setCapture',
        value: {
          members: [
            { backupId: 'bk-a', manifest: { name: 'orders set member', treeId: 'orders' } },
          ],
        },
      },
    });
    renderApp(server({ backup: set }).app, '/operations/op-set');
    expect(await screen.findByRole('link', { name: 'orders set member' })).toBeTruthy();
    expect(within(result()).getByRole('button', { name: 'Copy backup id bk-a' })).toBeTruthy();
  });

  it('falls back to the schema service when the backup service does not know the id', async () => {
    const scan = operation({
      operationId: 'op-s',
      kind: StoreOperationKind.COMPLIANCE_SCAN,
      state: StoreOperationState.FAILED,
      error: { code: 'failed_precondition', message: 'tree has no policy' },
    });
    const { app, calls } = server({ schema: scan });
    renderApp(app, '/operations/op-s');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Compliance scan operation' }),
    ).toBeTruthy();
    // In words, with the code and raw message behind Details.
    expect(
      screen.getByText(/^This cannot be done in the current state: tree has no policy/),
    ).toBeTruthy();
    expect(screen.getByText(/^FailedPrecondition: tree has no policy/)).toBeTruthy();
    expect(calls).toMatchObject({ backupStatus: 1, schemaStatus: 1 });
  });

  it('cancels a running operation after a confirmation naming the tenant and the operation', async () => {
    const running = operation({ operationId: 'op-c', targetId: 'orders' });
    const { app, calls } = server({ backup: running });
    renderApp(app, '/operations/op-c');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel operation' }));

    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('acme');
    expect(dialog.textContent).toContain('op-c');
    expect(calls.cancel).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel operation' }));

    expect(await screen.findByText('Cancellation requested: backup')).toBeTruthy();
    expect(calls.cancel).toEqual(['op-c']);
  });

  it('says so when neither service knows the id', async () => {
    const { app } = server({});
    renderApp(app, '/operations/nope');
    expect(await screen.findByText('No operation nope in tenant acme')).toBeTruthy();
  });
});
