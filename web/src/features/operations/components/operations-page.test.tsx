import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupControlService,
  BackupInsightService,
  BackupLifecycleService,
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  StoreRetentionApplyResultSchema,
  type StoreOperationListRequest,
} from '@store/contract';
import {
  SchemaInsightOperationKind,
  SchemaInsightService,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

/** Page requests only: the tray's own list (queued + running, no kinds) is left out. */
function server() {
  const requests = {
    backup: [] as StoreOperationListRequest[],
    schema: [] as StoreOperationListRequest[],
  };
  const isTray = (req: StoreOperationListRequest) =>
    req.kinds.length === 0 && req.states.length === 2 && !req.targetId;
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      listBackupOperations: (req) => {
        if (!isTray(req)) requests.backup.push(req);
        return create(StoreOperationPageSchema, {
          operations: [operation({ operationId: 'op-1' })],
          nextPageToken: 'more',
        });
      },
    });
    router.service(SchemaControlService, {
      listSchemaOperations: (req) => {
        if (!isTray(req)) requests.schema.push(req);
        return create(StoreOperationPageSchema, {
          operations: [operation({ operationId: 'op-2', kind: StoreOperationKind.MIGRATION })],
        });
      },
    });
  };
  return { requests, app: createTestApp(routes, { session: testSession }) };
}

describe('operations page', () => {
  it('lists both services newest first, each row linking to its detail', async () => {
    const { app } = server();
    renderApp(app, '/operations');
    const rows = await screen.findAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Operation'),
      expect.stringContaining('op-2'),
      expect.stringContaining('op-1'),
    ]);
    expect(screen.getByRole('link', { name: /op-1/ }).getAttribute('href')).toBe(
      '/operations/op-1',
    );
    // The id is secondary text with a copy button beside the link.
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    fireEvent.click(screen.getByRole('button', { name: 'Copy operation id op-1' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('op-1'));
    vi.unstubAllGlobals();
  });

  it('lists restore previews and dry-runs beside captures, each with its own summary', async () => {
    const routes = (router: ConnectRouter) => {
      router.service(IdentityService, { whoAmI: () => whoAmI() });
      router.service(BackupControlService, {
        listBackupOperations: () => ({ operations: [operation({ operationId: 'capture-1' })] }),
      });
      router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
      router.service(BackupInsightService, {
        listBackupInsightOperations: () => ({
          operations: [
            operation({
              operationId: 'preview-1',
              kind: StoreOperationKind.RESTORE_PREVIEW,
              state: StoreOperationState.SUCCEEDED,
              createdAt: timestampFromMs(Date.UTC(2026, 0, 2)),
              progress: { done: 5n, total: 5n, message: 'compared 5 keys, 2 differ' },
            }),
          ],
        }),
      });
      router.service(SchemaInsightService, {
        listSchemaInsightOperations: () => ({
          operations: [
            {
              operationId: 'dry-run-1',
              kind: SchemaInsightOperationKind.POLICY_DRY_RUN,
              state: StoreOperationState.SUCCEEDED,
              targetId: 'orders',
              createdAt: timestampFromMs(Date.UTC(2026, 0, 3)),
              result: { case: 'dryRun', value: { treeId: 'orders', scanned: 40n, failing: 3n } },
            },
          ],
        }),
      });
    };
    renderApp(createTestApp(routes, { session: testSession }), '/operations');
    const dryRun = await screen.findByRole('row', { name: /dry-run-1/ });
    expect(dryRun.textContent).toMatch(/Policy dry run/i);
    expect(dryRun.textContent).toContain('40 entries checked, 3 would be refused');
    const preview = screen.getByRole('row', { name: /preview-1/ });
    expect(within(preview).getByText('Compared 5 keys, 2 differ')).toBeTruthy();
    expect(screen.getByRole('row', { name: /capture-1/ })).toBeTruthy();
  });

  it('shows a stale-backup check that found corrupt and missing backups as a warning, a clean one green', async () => {
    const stale = (operationId: string, day: number, corrupt: bigint, missing: bigint) =>
      operation({
        operationId,
        kind: StoreOperationKind.STALE_HEALTH_CHECK,
        state: StoreOperationState.SUCCEEDED,
        createdAt: timestampFromMs(Date.UTC(2026, 0, day)),
        result: {
          case: 'staleHealthCheck',
          value: { selected: 4n, checked: 4n, healthy: 4n - corrupt - missing, corrupt, missing },
        },
      });
    const routes = (router: ConnectRouter) => {
      router.service(IdentityService, { whoAmI: () => whoAmI() });
      router.service(BackupControlService, { listBackupOperations: () => ({}) });
      router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
      router.service(BackupInsightService, {
        listBackupInsightOperations: () => ({
          operations: [stale('stale-bad', 3, 1n, 2n), stale('stale-good', 2, 0n, 0n)],
        }),
      });
    };
    renderApp(createTestApp(routes, { session: testSession }), '/operations');
    const bad = await screen.findByRole('row', { name: /stale-bad/ });
    const warning = within(bad).getByText('Succeeded — 1 corrupt, 2 missing');
    expect(warning.className).toContain('badge--warning');
    const good = screen.getByRole('row', { name: /stale-good/ });
    expect(within(good).getByText('Succeeded').className).toContain('badge--success');
  });

  it('lists retention applies beside captures, with what each deleted and freed', async () => {
    const routes = (router: ConnectRouter) => {
      router.service(IdentityService, { whoAmI: () => whoAmI() });
      router.service(BackupControlService, {
        listBackupOperations: () => ({ operations: [operation({ operationId: 'capture-1' })] }),
      });
      router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
      router.service(BackupLifecycleService, {
        listLifecycleOperations: () => ({
          operations: [
            operation({
              operationId: 'apply-1',
              kind: StoreOperationKind.RETENTION_APPLY,
              state: StoreOperationState.SUCCEEDED,
              createdAt: timestampFromMs(Date.UTC(2026, 0, 2)),
              result: {
                case: 'retentionApply',
                value: create(StoreRetentionApplyResultSchema, {
                  scope: { treeId: 'inventory' },
                  deletedCount: 3n,
                  bytesFreed: 2048n,
                  keptCount: 5n,
                }),
              },
            }),
            operation({
              operationId: 'apply-2',
              kind: StoreOperationKind.RETENTION_APPLY,
              state: StoreOperationState.RUNNING,
              createdAt: timestampFromMs(Date.UTC(2026, 0, 3)),
            }),
          ],
        }),
      });
    };
    renderApp(createTestApp(routes, { session: testSession }), '/operations');
    const applied = await screen.findByRole('row', { name: /apply-1/ });
    await waitFor(() =>
      expect(applied.textContent).toContain('Deleted 3 backups, 2.0 KiB freed; 5 kept'),
    );
    expect(applied.textContent).toMatch(/Retention apply/i);
    expect(screen.getByRole('row', { name: /apply-2/ }).textContent).not.toContain('Deleted');
    expect(screen.getByRole('row', { name: /capture-1/ })).toBeTruthy();
  });

  it('takes its filters from the URL and sends them to the server', async () => {
    const { app, requests } = server();
    renderApp(app, '/operations?state=RUNNING&kind=BACKUP&target=orders');
    await screen.findByRole('link', { name: /op-1/ });
    expect(requests.backup[0]).toMatchObject({
      states: [StoreOperationState.RUNNING],
      kinds: [StoreOperationKind.BACKUP],
      targetId: 'orders',
      pageSize: 50,
    });
    // A backup kind cannot be in the schema service: it is not asked.
    expect(requests.schema).toHaveLength(0);
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).value).toBe('BACKUP');
  });

  it('puts a changed filter in the URL, so a link reproduces the view', async () => {
    const { app } = server();
    const { router } = renderApp(app, '/operations');
    await screen.findByRole('link', { name: /op-1/ });
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'FAILED' } });
    await waitFor(() => expect(router.state.location.search).toBe('?state=FAILED'));
  });

  it('loads more by asking each service for a larger page', async () => {
    const { app, requests } = server();
    const { router } = renderApp(app, '/operations');
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(requests.backup.at(-1)?.pageSize).toBe(100));
    expect(router.state.location.search).toBe('?limit=100');
  });
});
