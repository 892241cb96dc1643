import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
  TreeSummarySchema,
  type ListTreesRequest,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

function server(pages: string[][]) {
  const requests: ListTreesRequest[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, { listBackupOperations: () => ({}) });
    router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
    router.service(TreeDataService, {
      listTrees: (req) => {
        requests.push(req);
        const index = req.pageToken ? Number(req.pageToken) : 0;
        return {
          trees: (pages[index] ?? []).map((treeId) =>
            create(TreeSummarySchema, {
              treeId,
              entryCount: 12n,
              hasPolicy: treeId === 'orders',
              deadLetterCount: treeId === 'orders' ? 3n : 0n,
            }),
          ),
          nextPageToken: index + 1 < pages.length ? String(index + 1) : '',
        };
      },
    });
  };
  return { requests, app: createTestApp(routes, { session: testSession }) };
}

describe('trees page', () => {
  it('lists trees with counts, policy and dead letters, each linking to its entries', async () => {
    const { app } = server([['orders', 'users']]);
    renderApp(app, '/trees');
    const row = await screen.findByRole('row', { name: /orders/ });
    expect(row.textContent).toMatch(/12/);
    expect(row.textContent).toMatch(/Policy set/);
    expect(row.textContent).toMatch(/3/);
    expect(within(row).getByRole('link', { name: 'orders' }).getAttribute('href')).toBe(
      '/trees/orders',
    );
    expect(screen.getByRole('row', { name: /users/ }).textContent).toMatch(/None/);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('loads the next page with the server’s token', async () => {
    const { app, requests } = server([['a'], ['b']]);
    renderApp(app, '/trees');
    await screen.findByRole('row', { name: /^a/ });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('row', { name: /^b/ })).toBeTruthy();
    await waitFor(() => expect(requests.map((req) => req.pageToken)).toEqual(['', '1']));
  });

  it('says so when the tenant has no tree', async () => {
    const { app } = server([[]]);
    renderApp(app, '/trees');
    expect(await screen.findByText('No trees yet')).toBeTruthy();
    // The empty page points at Import: its own button, which opens the import dialog.
    const empty = screen.getByText('No trees yet').closest('.empty-state') as HTMLElement;
    expect(within(empty).getByText(/Start by importing a JSON Lines file/)).toBeTruthy();
    const importButton = within(empty).getByRole('button', { name: 'Import a file' });
    await waitFor(() => expect((importButton as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(importButton);
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});
