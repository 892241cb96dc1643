import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

/** A backup service whose scrubs finish at once with the given findings. */
function server(role: string) {
  const scrubs: boolean[] = [];
  let latest: StoreOperationStatus | undefined;
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: [role] }] }),
    });
    router.service(BackupControlService, {
      listBackupOperations: (req) =>
        create(StoreOperationPageSchema, {
          operations: latest && req.kinds.includes(latest.kind) ? [latest] : [],
        }),
      getBackupOperationStatus: () => ({ status: latest }),
      startCatalogScrub: (req) => {
        scrubs.push(req.pruneOrphans);
        latest = operation({
          kind: StoreOperationKind.CATALOG_SCRUB,
          state: StoreOperationState.SUCCEEDED,
          targetId: undefined,
          result: {
            case: 'scrub',
            value: {
              rowsChecked: 3,
              artifactsChecked: 5,
              pruneOrphans: req.pruneOrphans,
              orphansFound: 1,
              orphansPruned: req.pruneOrphans ? 1 : 0,
              findings: [
                { backupId: 'bk-1', artifactId: 'a-1', problem: 'missing', detail: 'gone' },
                { backupId: '', artifactId: 'stray', problem: 'orphan', detail: '' },
              ],
            },
          },
        });
        return { operationId: latest.operationId, kind: StoreOperationKind.CATALOG_SCRUB };
      },
    });
  };
  return { scrubs, app: createTestApp(routes, { session: testSession }) };
}

describe('maintenance page', () => {
  it('asks before a pruning scrub, naming the tenant, and shows the findings by kind', async () => {
    const { app, scrubs } = server('admin');
    renderApp(app, '/maintenance');
    const scrub = await screen.findByRole('region', { name: 'Scrub' });
    expect(await within(scrub).findByText('Never run in this tenant.')).toBeTruthy();

    fireEvent.click(within(scrub).getByLabelText('Prune orphan artifacts (deletes them)'));
    fireEvent.click(await within(scrub).findByRole('button', { name: 'Start scrub' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Scrub and delete orphan artifacts?',
    });
    expect(dialog.textContent).toContain('tenant acme');
    expect(scrubs).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Scrub and prune' }));

    expect(
      await within(scrub).findByRole('table', {
        name: 'Catalog rows with missing or corrupt artifacts',
      }),
    ).toBeTruthy();
    expect(within(scrub).getByRole('table', { name: 'Orphan artifacts' })).toBeTruthy();
    expect(within(scrub).getByText('1 orphans deleted')).toBeTruthy();
    expect(scrubs).toEqual([true]);
  });

  it('disables the scrub for an operator, with the reason', async () => {
    const { app } = server('operator');
    renderApp(app, '/maintenance');
    const scrub = await screen.findByRole('region', { name: 'Scrub' });
    expect(
      await within(scrub).findByText('Needs the admin role (you are an operator in tenant acme).'),
    ).toBeTruthy();
    const start = within(scrub).getByRole('button', { name: 'Start scrub' });
    expect((start as HTMLButtonElement).disabled).toBe(true);
    const rebuild = screen.getByRole('region', { name: 'Rebuild' });
    expect(
      (within(rebuild).getByRole('button', { name: 'Start rebuild' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });
});
