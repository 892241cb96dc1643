import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreSchemaDeadLetterEntrySchema,
  StoreSchemaMode,
  StoreSchemaDeadLetterReason,
  TreeDataService,
  TreeEntrySchema,
  TreeSummarySchema,
  type ListEntriesRequest,
  type PutEntryRequest,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const KEYS = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);

/**
 * A tree "orders" of 30 entries with keyset pages, as the server pages them. With `policy`, the
 * tree has a policy requiring "name" in that mode, and ValidateValue judges values as the write
 * guard would; without it, ValidateValue is not served (the put goes ahead regardless).
 */
function server(roles: string[] = ['admin'], policy?: StoreSchemaMode) {
  const listRequests: ListEntriesRequest[] = [];
  const puts: PutEntryRequest[] = [];
  const validated: string[] = [];
  const routes = (router: ConnectRouter) => {
    if (policy !== undefined) {
      router.service(SchemaInsightService, {
        validateValue: (req) => {
          validated.push(req.valueJson);
          const ok = (JSON.parse(req.valueJson) as { name?: string }).name !== undefined;
          return {
            hasPolicy: true,
            policy: { jsonSchema: '{"required":["name"]}', mode: policy, version: 2 },
            accepted: ok || policy === StoreSchemaMode.AUDIT,
            violations: ok
              ? []
              : [
                  {
                    instancePath: '',
                    keyword: 'required',
                    message: "must have required property 'name'",
                  },
                ],
          };
        },
      });
    }
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles }] }),
    });
    router.service(BackupControlService, { listBackupOperations: () => ({}) });
    router.service(SchemaControlService, {
      listSchemaOperations: () => ({}),
      getPolicy: () => ({ found: false }),
      countDeadLetters: () => ({ count: 0 }),
      async *streamDeadLetters() {
        yield create(StoreSchemaDeadLetterEntrySchema, {
          key: 'bad',
          valueJson: '{"n":"x"}',
          reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
          errors: ['/n: must be integer'],
        });
      },
    });
    router.service(TreeDataService, {
      // "drained" exists with no live entry left; any other name but "orders" does not exist.
      listTrees: () => ({
        trees: ['orders', 'drained'].map((treeId) => create(TreeSummarySchema, { treeId })),
      }),
      listEntries: (req) => {
        listRequests.push(req);
        if (req.treeId !== 'orders') return { entries: [], nextPageToken: '' };
        const after = req.pageToken ? atob(req.pageToken) : '';
        const matching = KEYS.filter((k) => k.startsWith(req.keyPrefix) && k > after);
        const page = matching.slice(0, req.pageSize);
        return {
          entries: page.map((key) =>
            create(TreeEntrySchema, {
              key,
              valueJson: `{"id":"${key}"}`,
              sequence: 1n,
              updatedAt: timestampFromMs(Date.UTC(2025, 0, 1)),
            }),
          ),
          nextPageToken: matching.length > page.length ? btoa(page.at(-1) ?? '') : '',
        };
      },
      getEntry: (req) => ({
        found: true,
        entry: create(TreeEntrySchema, { key: req.key, valueJson: '{"id":"k03","n":[1,2]}' }),
      }),
      putEntry: (req) => {
        puts.push(req);
        return req.key === 'bad'
          ? { sequence: 0n, deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' }
          : { sequence: 31n };
      },
    });
  };
  return { listRequests, puts, validated, app: createTestApp(routes, { session: testSession }) };
}

/** Clicks "Put entry" once WhoAmI has answered (until then it is disabled). */
async function openPutDialog() {
  // GuardedButton renders a new element once allowed: look it up again each time.
  const enabled = () => screen.getByRole('button', { name: 'Put entry' }) as HTMLButtonElement;
  await waitFor(() => expect(enabled().disabled).toBe(false));
  fireEvent.click(enabled());
}

describe('tree detail page', () => {
  it('pages through entries with keyset tokens kept in the URL', async () => {
    const { app, listRequests } = server();
    const { router } = renderApp(app, '/trees/orders');
    expect(await screen.findByRole('row', { name: /k00/ })).toBeTruthy();
    expect(screen.queryByRole('row', { name: /k25/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('row', { name: /k25/ })).toBeTruthy();
    expect(router.state.location.search).toBe(`?page=${btoa('k24')}`);
    expect(listRequests.at(-1)).toMatchObject({ treeId: 'orders', pageToken: btoa('k24') });
    expect(screen.getByText('Page 2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('row', { name: /k00/ })).toBeTruthy();
  });

  it('searches by key prefix from the URL and from the form', async () => {
    const { app, listRequests } = server();
    const { router } = renderApp(app, '/trees/orders?prefix=k1');
    expect(await screen.findByRole('row', { name: /k10/ })).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(listRequests.at(-1)?.keyPrefix).toBe('k1');

    fireEvent.change(screen.getByLabelText('Key prefix'), { target: { value: 'k2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('row', { name: /k29/ })).toBeTruthy();
    expect(router.state.location.search).toBe('?prefix=k2');
  });

  it('opens a value as formatted JSON from its row', async () => {
    const { app } = server();
    const { router } = renderApp(app, '/trees/orders');
    fireEvent.click(await screen.findByRole('button', { name: 'View k03' }));
    const value = await screen.findByLabelText('Value of k03');
    expect(value.textContent).toBe('{\n  "id": "k03",\n  "n": [\n    1,\n    2\n  ]\n}');
    expect(router.state.location.search).toBe('?key=k03');
  });

  it('checks the JSON as you type and does not send a value that does not parse', async () => {
    const { app, puts } = server();
    renderApp(app, '/trees/orders');
    await openPutDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'new' } });
    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"a": 1,' },
    });
    expect(within(dialog).getByLabelText('Value (JSON)').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    expect(puts).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"a": 1}' },
    });
    expect(within(dialog).getByText('Valid JSON.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ treeId: 'orders', key: 'new', valueJson: '{"a": 1}' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the dead-letter outcome with the policy errors when the write is refused', async () => {
    const { app } = server();
    renderApp(app, '/trees/orders');
    await openPutDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'bad' } });
    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"n":"x"}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    const outcome = await within(dialog).findByRole('alert');
    expect(outcome.textContent).toMatch(/Dead-lettered/);
    // The reason in words, the API's name as its tooltip.
    expect(within(outcome).getByText('Schema violation').getAttribute('title')).toBe(
      'SCHEMA_VIOLATION',
    );
    expect(within(outcome).getByText('/n: must be integer')).toBeTruthy();
  });

  it('checks the value against an Enforce policy before saving and does not send what it would refuse', async () => {
    const { app, puts, validated } = server(['admin'], StoreSchemaMode.ENFORCE);
    renderApp(app, '/trees/orders');
    await openPutDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'p1' } });
    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"age": 3}' },
    });
    const verdict = within(dialog).getByTestId('put-entry-policy');
    await waitFor(() =>
      expect(verdict.textContent).toContain(
        '1 error against the policy v2 (Enforce) — the write guard would refuse it',
      ),
    );
    expect(verdict.textContent).toContain("must have required property 'name'");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal.textContent).toMatch(
      /Not sent: the policy v2 \(Enforce\) would refuse this value/,
    );
    expect(puts).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"age": 3, "name": "Ann"}' },
    });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await waitFor(() => expect(verdict.textContent).toContain('Passes the policy v2 (Enforce)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ key: 'p1', valueJson: '{"age": 3, "name": "Ann"}' });
    // The check read the text as typed, as the write does.
    expect(validated).toContain('{"age": 3, "name": "Ann"}');
  });

  it('under an Audit policy the errors are shown but the put is sent', async () => {
    const { app, puts } = server(['admin'], StoreSchemaMode.AUDIT);
    renderApp(app, '/trees/orders');
    await openPutDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'p2' } });
    fireEvent.change(within(dialog).getByLabelText('Value (JSON)'), {
      target: { value: '{"age": 3}' },
    });
    const verdict = within(dialog).getByTestId('put-entry-policy');
    await waitFor(() =>
      expect(verdict.textContent).toContain('(Audit: it would still be written)'),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put entry' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a viewer sees put, edit and delete disabled with the reason', async () => {
    const { app } = server(['viewer']);
    renderApp(app, '/trees/orders');
    await screen.findByRole('row', { name: /k00/ });
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Put entry' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );
    expect(
      screen.getAllByText('Needs the operator role (you are a viewer in tenant acme).').length,
    ).toBe(2);
    expect((screen.getByRole('button', { name: 'Delete k00' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('a tree URL that does not exist says so instead of looking like an empty tree', async () => {
    const { app } = server();
    renderApp(app, '/trees/ordres');
    expect(await screen.findByText('No tree named “ordres”')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the tenant’s trees' }).getAttribute('href')).toBe(
      '/trees',
    );
    expect(screen.queryByText('No entries')).toBeNull();
  });

  it('a tree that exists without live entries still reads as an empty tree', async () => {
    const { app } = server();
    renderApp(app, '/trees/drained');
    expect(await screen.findByText('No entries')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(/No tree named/)).toBeNull());
  });

  it('asks before deleting, naming the tenant, the tree and the key; the row’s Delete is quiet, the confirm’s red', async () => {
    const { app } = server();
    renderApp(app, '/trees/orders');
    const rowDelete = await screen.findByRole('button', { name: 'Delete k01' });
    // A quiet, outlined Delete on every row; the solid red one only in the confirm.
    expect(rowDelete.className.split(' ')).toContain('btn--danger-quiet');
    expect(rowDelete.className.split(' ')).not.toContain('btn--danger');
    fireEvent.click(rowDelete);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/Delete the entry k01 from tree orders in tenant acme\?/);
    expect(
      within(dialog).getByRole('button', { name: 'Delete entry' }).className.split(' '),
    ).toContain('btn--danger');
  });
});
