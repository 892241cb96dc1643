import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupHealthStatus,
  BackupInsightService,
  durationFromMs,
  durationToMs,
  IdentityService,
  StoreBackupApiOperation,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  type StaleHealthCheckRequest,
} from '@store/contract';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const MIN_MS = 60_000;

function server(options: { available?: boolean; unhealthyFound?: string[] } = {}) {
  const configured: { enabled: boolean; ms: number }[] = [];
  let stored: { enabled: boolean; ms: number } | undefined;
  const staleStarts: StaleHealthCheckRequest[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(BackupInsightService, {
      listBackupInsightOperations: () =>
        options.unhealthyFound
          ? {
              operations: [
                {
                  operationId: 'stale-0',
                  kind: StoreOperationKind.STALE_HEALTH_CHECK,
                  state: StoreOperationState.SUCCEEDED,
                  result: {
                    case: 'staleHealthCheck',
                    value: {
                      selected: 2n,
                      corrupt: 2n,
                      unhealthyBackupIds: options.unhealthyFound,
                    },
                  },
                },
              ],
            }
          : staleStarts.length === 0
            ? {}
            : {
                operations: [
                  {
                    operationId: 'stale-1',
                    kind: StoreOperationKind.STALE_HEALTH_CHECK,
                    state: StoreOperationState.RUNNING,
                    progress: { done: 1n, total: 4n, unit: 'backups' },
                  },
                ],
              },
      startStaleHealthCheck: (req) => {
        staleStarts.push(req);
        return { operationId: 'stale-1', kind: StoreOperationKind.STALE_HEALTH_CHECK };
      },
    });
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      isHealthMonitoringAvailable: () => ({ available: options.available ?? true }),
      listBackups: () => ({
        backups: [
          { backupId: 'bk-1', name: 'nightly', treeId: 'orders' },
          {
            backupId: 'bk-2',
            name: 'weekly',
            treeId: 'ledger',
            lastHealthStatus: BackupHealthStatus.CORRUPT,
            lastVerifiedAt: timestampFromMs(Date.now() - 3 * 86_400_000),
          },
          {
            backupId: 'bk-3',
            name: 'hourly',
            treeId: 'orders',
            lastHealthStatus: BackupHealthStatus.HEALTHY,
            lastVerifiedAt: timestampFromMs(Date.now() - 5 * 3_600_000),
          },
        ],
      }),
      describeBackup: (req) =>
        req.backupId === 'bk-1'
          ? { found: true, manifest: { backupId: 'bk-1', name: 'nightly', treeId: 'orders' } }
          : { found: false },
      probeCapabilities: () => ({
        treeId: 'orders',
        allowedOperations: [
          StoreBackupApiOperation.START_BACKUP_HEALTH_CHECK,
          StoreBackupApiOperation.CONFIGURE_BACKUP_HEALTH,
        ],
      }),
      getBackupHealth: () => ({
        found: false,
        config: stored && {
          monitoringEnabled: stored.enabled,
          interval: durationFromMs(stored.ms),
        },
      }),
      configureBackupHealth: (req) => {
        const ms = durationToMs(req.interval);
        configured.push({ enabled: req.monitoringEnabled, ms });
        // Like the server: an interval below the scheduler minimum is stored clamped.
        stored = { enabled: req.monitoringEnabled, ms: Math.max(ms, MIN_MS) };
        return {};
      },
    });
  };
  return { configured, staleStarts, app: createTestApp(routes, { session: testSession }) };
}

describe('health page', () => {
  it('shows a never-verified backup and checks the monitoring interval before sending', async () => {
    const { app, configured } = server();
    renderApp(app, '/health?backup=bk-1');
    const report = await screen.findByRole('region', { name: /^Last report/ });
    // The chosen backup by name, its id beside it to copy.
    const subject = await screen.findByTestId('health-subject');
    await waitFor(() => expect(subject.textContent).toMatch(/^Backup nightly of tree orders/));
    expect(within(subject).getByRole('link', { name: 'nightly' }).getAttribute('href')).toBe(
      '/backups/bk-1',
    );
    expect(within(subject).getByRole('button', { name: 'Copy backup id bk-1' })).toBeTruthy();
    // Said once: the report's title, not again in its explanation.
    expect(within(report).getAllByText(/never verified/i)).toHaveLength(1);

    const monitoring = screen.getByRole('region', { name: /^Monitoring/ });
    fireEvent.click(within(monitoring).getByLabelText('Verify this backup periodically'));
    fireEvent.change(within(monitoring).getByLabelText('Check interval'), {
      target: { value: 'soon' },
    });
    const save = within(monitoring).getByRole('button', { name: 'Save monitoring' });
    await screen.findByText('Available');
    fireEvent.click(save);
    expect(await within(monitoring).findByText('Enter a whole number.')).toBeTruthy();
    expect(configured).toEqual([]);

    fireEvent.change(within(monitoring).getByLabelText('Check interval'), {
      target: { value: '30' },
    });
    fireEvent.change(within(monitoring).getByLabelText('Unit'), { target: { value: 'seconds' } });
    fireEvent.click(save);
    expect(await within(monitoring).findByText('Every 1 minute')).toBeTruthy();
    expect(within(monitoring).getByRole('status').textContent).toMatch(
      /^Clamped to 1 minute: the requested 30 seconds/,
    );
    expect(configured).toEqual([{ enabled: true, ms: 30_000 }]);
  });

  it('sorts every backup by verdict and age, and verifies stale backups as one operation', async () => {
    const { app, staleStarts } = server();
    renderApp(app, '/health');
    const fleet = await screen.findByRole('region', { name: 'Every backup' });
    const names = () =>
      within(fleet)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.getAttribute('data-backup'));
    await within(fleet).findByRole('row', { name: /weekly/ });
    // Worst first: corrupt, then never verified, then healthy.
    expect(names()).toEqual(['bk-2', 'bk-1', 'bk-3']);
    const verdictHeader = within(fleet).getByRole('columnheader', { name: /Last verdict/ });
    expect(verdictHeader.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(fleet).getByRole('button', { name: /Last verified/ }));
    // Longest ago first, never verified before any check.
    expect(names()).toEqual(['bk-1', 'bk-2', 'bk-3']);
    fireEvent.click(within(fleet).getByRole('button', { name: /Last verified/ }));
    expect(names()).toEqual(['bk-3', 'bk-2', 'bk-1']);
    expect(within(fleet).getByText('5 h ago')).toBeTruthy();

    const panel = screen.getByRole('region', { name: 'Verify stale backups' });
    fireEvent.change(within(panel).getByLabelText(/Not verified within/), {
      target: { value: '3' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Verify stale backups' }));
    expect(await within(panel).findByText('Latest run')).toBeTruthy();
    expect(staleStarts.map((req) => Number(req.olderThan?.seconds))).toEqual([3 * 86_400]);
  });

  it('names the unhealthy backups a stale check found (the id on hover); a backup gone since keeps its id', async () => {
    const { app } = server({ unhealthyFound: ['bk-1', 'bk-gone'] });
    renderApp(app, '/health');
    const panel = await screen.findByRole('region', { name: 'Verify stale backups' });
    const named = await within(panel).findByRole('link', { name: 'nightly' });
    expect(named.getAttribute('title')).toBe('bk-1');
    expect(within(panel).getByRole('link', { name: 'bk-gone' })).toBeTruthy();
  });

  it('says when the backup does not exist, and when monitoring is not offered', async () => {
    const { app } = server({ available: false });
    renderApp(app, '/health?backup=bk-404');
    expect(await screen.findByText('Unknown backup bk-404')).toBeTruthy();
    expect(await screen.findByText('Not available')).toBeTruthy();
  });
});
