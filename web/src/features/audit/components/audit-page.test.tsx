import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  ListAuditRecordsResponseSchema,
  SchemaControlService,
  StoreOperationPageSchema,
  type ListAuditRecordsRequest,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const record = (id: string, method: string, outcome = 'OK') => ({
  recordId: id,
  time: timestampFromMs(Date.UTC(2026, 10, 24, 10, 0, 0)),
  tenantId: 'acme',
  subject: 'token:t-1',
  service: 'store.data.v1.TreeDataService',
  method,
  targetId: 'orders',
  outcome,
  clientAddress: '203.0.113.7',
  detail: outcome === 'OK' ? '' : 'PutEntry is not permitted for this caller',
});

/** A DeleteBackup record the server named: target_name beside the backup id. */
const deleteBackupRecord = () => ({
  ...record('r-9', 'DeleteBackup', 'FAILED_PRECONDITION'),
  service: 'store.backup.v1.BackupControlService',
  targetId: 'b-7f3a9c',
  targetName: 'full ledger',
  detail: 'backup “full ledger” is protected',
});

function server(
  roles: string[] = ['admin'],
  firstPage = () => [record('r-2', 'DeleteEntry', 'PERMISSION_DENIED'), record('r-1', 'PutEntry')],
) {
  const requests: ListAuditRecordsRequest[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles }] }),
      listAuditRecords: (req) => {
        requests.push(req);
        if (!roles.includes('admin')) {
          throw new ConnectError('not permitted', Code.PermissionDenied);
        }
        return create(ListAuditRecordsResponseSchema, {
          records: req.pageToken === '' ? firstPage() : [record('r-0', 'SetPolicy')],
          nextPageToken: req.pageToken === '' ? 'page-2' : '',
        });
      },
    });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
    });
    router.service(SchemaControlService, {
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
  };
  return { requests, app: createTestApp(routes, { session: testSession }) };
}

describe('audit page', () => {
  it('lists the records with who, action, target and outcome in words; Load more follows the token', async () => {
    const { app, requests } = server();
    renderApp(app, '/audit');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Outcome'),
      // Actions and outcomes in words; the raw names stay as tooltips.
      expect.stringMatching(/token:t-1.*Delete entry.*orders.*Not permitted/),
      expect.stringMatching(/Put entry.*Succeeded/),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('Set policy')).toBeTruthy();
    expect(within(table).getByText('Set policy').getAttribute('title')).toMatch(/\/SetPolicy$/);
    expect(requests.at(-1)?.pageToken).toBe('page-2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens a row detail with the target, request, outcome and detail', async () => {
    const { app } = server();
    renderApp(app, '/audit');
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    fireEvent.click(within(row).getByRole('button', { name: /^Detail/ }));
    const detail = await within(table).findByText('Request');
    const facts = detail.closest('dl')!;
    expect(facts.textContent).toMatch(/Delete entry on orders \(tree data\)/);
    expect(facts.textContent).toContain('PutEntry is not permitted for this caller');
    expect(facts.textContent).toContain('PERMISSION_DENIED');
    expect(facts.textContent).toContain('203.0.113.7');
  });

  it('exports every record matching the filters, through every page', async () => {
    const { app, requests } = server();
    renderApp(app, '/audit?outcome=OK');
    await screen.findByRole('table');
    const saved: Blob[] = [];
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:audit';
    };
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Export JSON Lines' }));
      expect(await screen.findByText(/3 records saved as audit-acme-/)).toBeTruthy();
    } finally {
      URL.createObjectURL = create;
    }
    const exportRequests = requests.filter((req) => req.pageSize === 1000);
    expect(exportRequests.map((req) => [req.pageToken, req.outcome])).toEqual([
      ['', 'OK'],
      ['page-2', 'OK'],
    ]);
    const lines = (await saved[0]!.text()).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { recordId: string }).recordId)).toEqual([
      'r-2',
      'r-1',
      'r-0',
    ]);
  });

  it('shows a target the server named by its name, the id on hover and in the detail; the export has both', async () => {
    const { app } = server(['admin'], () => [deleteBackupRecord(), record('r-1', 'PutEntry')]);
    renderApp(app, '/audit');
    const table = await screen.findByRole('table');
    const [, named, unnamed] = within(table).getAllByRole('row');
    const target = within(named!).getByText('full ledger');
    expect(target.getAttribute('title')).toBe('full ledger (b-7f3a9c)');
    expect(named!.textContent).not.toContain('b-7f3a9c');
    // A target the server did not name (a tree) shows as recorded.
    expect(within(unnamed!).getByText('orders')).toBeTruthy();

    fireEvent.click(within(named!).getByRole('button', { name: /^Detail/ }));
    const facts = (await within(table).findByText('Request')).closest('dl')!;
    expect(facts.textContent).toContain('Delete backup on “full ledger” (backup control)');
    expect(facts.textContent).toContain('full ledger b-7f3a9c');

    const saved: Blob[] = [];
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:audit';
    };
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText(/3 records saved as audit-acme-/)).toBeTruthy();
    } finally {
      URL.createObjectURL = create;
    }
    const lines = (await saved[0]!.text()).trimEnd().split('\r\n');
    expect(lines[0]).toContain(',target,targetName,');
    expect(lines[1]).toContain(',b-7f3a9c,full ledger,FAILED_PRECONDITION,');
    expect(lines[2]).toContain(',orders,,OK,');
  });

  it('sends the URL filters and writes new ones back to the URL', async () => {
    const { app, requests } = server();
    const { router } = renderApp(app, '/audit?method=PutEntry');
    await screen.findByRole('table');
    expect(requests[0]).toMatchObject({ method: 'PutEntry', subject: '', outcome: '' });
    fireEvent.change(screen.getByLabelText('Outcome'), {
      target: { value: 'PERMISSION_DENIED' },
    });
    await waitFor(() => expect(requests.at(-1)?.outcome).toBe('PERMISSION_DENIED'));
    expect(router.state.location.search).toBe('?method=PutEntry&outcome=PERMISSION_DENIED');
  });

  it('tells a non-admin the trail is for admins and does not ask the server', async () => {
    const { app, requests } = server(['operator']);
    renderApp(app, '/audit');
    expect(await screen.findByText('Admins only')).toBeTruthy();
    expect(requests).toEqual([]);
  });
});
