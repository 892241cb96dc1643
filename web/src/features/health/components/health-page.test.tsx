import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  durationFromMs,
  durationToMs,
  IdentityService,
  StoreBackupApiOperation,
  StoreOperationPageSchema,
} from '@store/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const MIN_MS = 60_000;

function server(options: { available?: boolean } = {}) {
  const configured: { enabled: boolean; ms: number }[] = [];
  let stored: { enabled: boolean; ms: number } | undefined;
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      isHealthMonitoringAvailable: () => ({ available: options.available ?? true }),
      listBackups: () => ({
        backups: [{ backupId: 'bk-1', name: 'nightly', treeId: 'orders' }],
      }),
      describeBackup: (req) =>
        req.backupId === 'bk-1'
          ? { found: true, manifest: { backupId: 'bk-1', treeId: 'orders' } }
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
  return { configured, app: createTestApp(routes, { session: testSession }) };
}

describe('health page', () => {
  it('shows a never-verified backup and checks the monitoring interval before sending', async () => {
    const { app, configured } = server();
    renderApp(app, '/health?backup=bk-1');
    const report = await screen.findByRole('region', { name: /^Last report/ });
    expect(within(report).getAllByText('Never verified').length).toBeGreaterThan(0);

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

  it('says when the backup does not exist, and when monitoring is not offered', async () => {
    const { app } = server({ available: false });
    renderApp(app, '/health?backup=bk-404');
    expect(await screen.findByText('Unknown backup bk-404')).toBeTruthy();
    expect(await screen.findByText('Not available')).toBeTruthy();
  });
});
