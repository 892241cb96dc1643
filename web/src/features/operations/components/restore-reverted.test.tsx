import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreBackupApiOperation,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  StoreRestoreMode,
  type StoreOperationStatus,
} from '@store/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatLocal } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const REVERTED_AT = Date.UTC(2026, 10, 25, 10, 0, 0);
/** The reader's local time of the revert, as every time in the console shows. */
const AT = formatLocal(new Date(REVERTED_AT));

function restore(operationId: string, reverted?: { by?: string }): StoreOperationStatus {
  return operation({
    operationId,
    kind: StoreOperationKind.RESTORE,
    state: StoreOperationState.SUCCEEDED,
    targetId: 'bk-1',
    result: {
      case: 'restore',
      value: {
        backupId: 'bk-1',
        targetTreeId: 'orders',
        mode: StoreRestoreMode.IN_PLACE,
        operationId,
        manifestChain: ['bk-1'],
        entriesApplied: 12n,
        previousPhysicalTreeId: 'pt-old',
        ...(reverted && {
          revertedAt: timestampFromMs(REVERTED_AT),
          ...(reverted.by !== undefined && { revertedBy: reverted.by }),
        }),
      },
    },
  });
}

/** A server listing `operations` (the tray's active list empty), naming token:t-7 "night shift". */
function server(operations: () => StoreOperationStatus[]) {
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI(),
      resolveSubjects: ({ subjects }) => ({
        subjects: subjects.map((subject) => ({
          subject,
          displayName: subject === 'token:t-7' ? 'night shift' : subject,
          kind: 'token',
          named: subject === 'token:t-7',
        })),
      }),
    });
    router.service(BackupControlService, {
      listBackupOperations: (req) =>
        create(StoreOperationPageSchema, {
          operations: operations().filter(
            (op) => req.states.length === 0 || req.states.includes(op.state),
          ),
        }),
      getBackupOperationStatus: ({ operationId }) => ({
        status: operations().find((op) => op.operationId === operationId),
      }),
      probeCapabilities: () => ({
        treeId: 'orders',
        allowedOperations: [StoreBackupApiOperation.REVERT_RESTORE],
      }),
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
      getSchemaOperationStatus: () => ({}),
    });
  };
  return createTestApp(routes, { session: testSession });
}

const rowOf = async (operationId: string) =>
  (await screen.findByRole('link', { name: new RegExp(operationId) })).closest('tr')!;

describe('Reverted by <who> at <time>', () => {
  it('the operations list marks a reverted restore with who reverted it, by name, and when; not the others', async () => {
    const app = server(() => [
      restore('op-reverted', { by: 'token:t-7' }),
      restore('op-kept'),
      restore('op-old', {}),
    ]);
    renderApp(app, paths.operations);
    const reverted = await rowOf('op-reverted');
    const mark = await within(reverted).findByTestId('restore-reverted');
    expect((await within(mark).findByText('night shift')).textContent).toBe('night shift');
    expect(mark.textContent).toBe(`Reverted by night shift at ${AT}`);
    expect(within(mark).getByText('night shift').getAttribute('title')).toBe('token:t-7');
    // The time is the console's usual one: local, with UTC on hover.
    expect(mark.querySelector('time')?.getAttribute('title')).toBe('UTC 2026-11-25 10:00:00');
    expect(within(await rowOf('op-kept')).queryByTestId('restore-reverted')).toBeNull();
    // A revert recorded before the server kept who asked: its time alone.
    expect(within(await rowOf('op-old')).getByTestId('restore-reverted').textContent).toBe(
      `Reverted at ${AT}`,
    );
  });

  it('the operation page says who reverted the restore and when, and no longer offers Revert', async () => {
    const app = server(() => [restore('op-reverted', { by: 'token:t-7' })]);
    renderApp(app, paths.operation('op-reverted'));
    const mark = await screen.findByTestId('restore-reverted');
    expect(await within(mark).findByText('night shift')).toBeTruthy();
    expect(mark.textContent).toBe(`Reverted by night shift at ${AT}`);
    expect(screen.queryByRole('button', { name: 'Revert restore' })).toBeNull();
  });

  it('the operation page of a restore not reverted offers Revert and says nothing of a revert', async () => {
    const app = server(() => [restore('op-kept')]);
    renderApp(app, paths.operation('op-kept'));
    expect(await screen.findByRole('button', { name: 'Revert restore' })).toBeTruthy();
    expect(screen.queryByTestId('restore-reverted')).toBeNull();
  });

  it('the tray marks a finished restore it follows once it was reverted', async () => {
    const state = { op: { ...restore('op-t'), state: StoreOperationState.RUNNING } };
    const app = server(() => [state.op]);
    renderApp(app, '/');
    const tray = () => screen.getByRole('complementary', { name: 'Operations tray' });
    expect(
      await within(tray()).findByRole('button', { name: 'Operations: 1 running' }),
    ).toBeTruthy();
    fireEvent.click(within(tray()).getByRole('button', { name: /^Operations:/ }));

    state.op = { ...restore('op-t'), state: StoreOperationState.SUCCEEDED };
    await act(() => app.queryClient.invalidateQueries());
    expect(await within(tray()).findByText('12 entries restored into orders')).toBeTruthy();
    expect(within(tray()).queryByTestId('restore-reverted')).toBeNull();

    state.op = restore('op-t', { by: 'token:t-7' });
    await act(() => app.queryClient.invalidateQueries());
    const mark = await within(tray()).findByTestId('restore-reverted');
    expect(await within(mark).findByText('night shift')).toBeTruthy();
    expect(mark.textContent).toBe(`Reverted by night shift at ${AT}`);
  });
});
