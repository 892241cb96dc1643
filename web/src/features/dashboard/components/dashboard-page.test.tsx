import { create } from '@bufbuild/protobuf';
import { timestampFromMs, timestampMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupHealthStatus,
  BackupInsightService,
  BackupManifestSchema,
  durationFromMs,
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationState,
  TreeDataService,
  TreeProtection,
  TreeSummarySchema,
  type BackupCatalogRequest,
  type StoreOperationListRequest,
} from '@store/contract';
import {
  ActiveAlertSchema,
  NotificationService,
  type ActiveAlert,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const HOUR = 60 * 60 * 1000;

function server(alerts: ActiveAlert[] = []) {
  const now = Date.now();
  const requests = {
    operations: [] as StoreOperationListRequest[],
    catalog: [] as BackupCatalogRequest[],
    summaries: 0,
    alerts: 0,
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, {
      listBackupOperations: (req) => {
        requests.operations.push(req);
        if (!req.createdAfter) return {};
        return {
          operations: [
            operation({
              operationId: 'restore-1',
              kind: StoreOperationKind.RESTORE,
              targetId: 'bk-1',
              state: StoreOperationState.FAILED,
              createdAt: timestampFromMs(now - HOUR),
              startedAt: timestampFromMs(now - HOUR),
              finishedAt: timestampFromMs(now - HOUR + 1500),
              error: { code: 'data_loss', message: 'artifact part-00001 failed verification' },
            }),
          ],
        };
      },
      describeBackup: (req) => ({
        found: true,
        manifest: create(BackupManifestSchema, { backupId: req.backupId, name: 'nightly' }),
      }),
      listBackups: (req) => {
        requests.catalog.push(req);
        if (req.healthStatus === BackupHealthStatus.CORRUPT) {
          return {
            backups: [
              create(BackupManifestSchema, {
                backupId: 'bk-1',
                name: 'nightly',
                treeId: 'ledger',
                lastHealthStatus: BackupHealthStatus.CORRUPT,
              }),
            ],
          };
        }
        return {};
      },
    });
    router.service(BackupInsightService, {
      getCatalogSummary: () => {
        requests.summaries += 1;
        return {
          treeCount: 2n,
          backupCount: 4n,
          storedBytes: 3n * 1024n * 1024n,
          capturesSucceededLastDay: 3n,
          capturesFailedLastDay: 0n,
          unprotectedTreeCount: 2n,
          // One backup verified: "0 corrupt" of the others would mean nothing.
          verification: { neverVerified: 3n, verifiedRecently: 1n, corrupt: 1n },
          staleAfter: durationFromMs(7 * 24 * HOUR),
          trees: [
            {
              treeId: 'ledger',
              protection: TreeProtection.OVERDUE,
              scheduleInterval: durationFromMs(HOUR),
              lastSuccessAt: timestampFromMs(now - 10 * HOUR),
              verification: { neverVerified: 1n },
            },
            {
              treeId: 'orders',
              protection: TreeProtection.NO_SCHEDULE,
              verification: { neverVerified: 2n, verifiedRecently: 1n },
            },
          ],
        };
      },
    });
    router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
    router.service(NotificationService, {
      listActiveAlerts: () => {
        requests.alerts += 1;
        return { alerts, evaluatedAt: timestampFromMs(now) };
      },
    });
    router.service(TreeDataService, {
      listTrees: () => ({
        trees: [
          create(TreeSummarySchema, { treeId: 'ledger', entryCount: 3n }),
          create(TreeSummarySchema, { treeId: 'orders', entryCount: 5n, deadLetterCount: 2n }),
        ],
      }),
    });
  };
  return { requests, now, app: createTestApp(routes, { session: testSession }) };
}

describe('dashboard', () => {
  it('lists what needs attention, each row linking to its object', async () => {
    const { app } = server();
    renderApp(app, '/');
    const failed = await screen.findByRole('region', { name: /Failed in the last 24 hours/ });
    const row = await within(failed).findByRole('row', { name: /restore-1/ });
    expect(row.textContent).toContain('DataLoss: artifact part-00001 failed verification');

    const corrupt = screen.getByRole('region', { name: /Corrupt or missing backups/ });
    const backupLink = await within(corrupt).findByRole('link', { name: /nightly/ });
    expect(backupLink.getAttribute('href')).toBe('/backups/bk-1');
    // The verdict in words, the enum name as its tooltip.
    const verdict = within(corrupt).getByText('Corrupt');
    expect(verdict.getAttribute('title')).toBe('CORRUPT');

    const unprotected = await screen.findByRole('region', { name: /Unprotected trees/ });
    expect((await within(unprotected).findByRole('row', { name: /ledger/ })).textContent).toMatch(
      /Behind: scheduled every 1 h 0 min/,
    );
    expect(within(unprotected).getByRole('row', { name: /orders/ }).textContent).toMatch(
      /No schedule/,
    );
    const glance = screen.getByRole('region', { name: 'At a glance' });
    expect(within(glance).getByText('3.0 MiB')).toBeTruthy();
    expect(within(glance).getByText(/3 never verified, 0 older than 7 days/)).toBeTruthy();
    expect(within(glance).getByText(/Only 1 of 4 backups verified within 7 days/)).toBeTruthy();

    const deadLetters = screen.getByRole('region', { name: /Trees with dead letters/ });
    const treeRow = await within(deadLetters).findByRole('row', { name: /orders/ });
    expect(within(treeRow).getByRole('link', { name: 'orders' }).getAttribute('href')).toBe(
      '/trees/orders',
    );
    expect(within(deadLetters).queryByRole('row', { name: /ledger/ })).toBeNull();

    expect(
      await screen.findByRole('img', { name: /^1 operations finished in the last 24 hours/ }),
    ).toBeTruthy();
    // The longest run is named by what it did and to which backup, its id only in the title.
    const durations = screen.getByRole('region', { name: /Operation durations/ });
    const longest = await within(durations).findByRole('link', { name: 'restore of nightly' });
    expect(longest.getAttribute('href')).toBe('/operations/restore-1');
    expect(longest.getAttribute('title')).toBe('restore-1');
  });

  it('asks each list once, with the created_after and health filters, not per row', async () => {
    const { app, requests, now } = server();
    renderApp(app, '/');
    await screen.findByRole('row', { name: /restore-1/ });
    const deadLetters = screen.getByRole('region', { name: /Trees with dead letters/ });
    await within(deadLetters).findByRole('row', { name: /orders/ });

    const recent = requests.operations.filter((req) => req.createdAfter);
    expect(recent.length).toBeGreaterThanOrEqual(1);
    const after = timestampMs(recent[0]!.createdAfter!);
    expect(now - after).toBeGreaterThanOrEqual(24 * HOUR);
    expect(now - after).toBeLessThan(24 * HOUR + 5 * 60 * 1000 + 1000);

    const healthFilters = requests.catalog.map((req) => req.healthStatus).filter((h) => h);
    expect(new Set(healthFilters)).toEqual(
      new Set([BackupHealthStatus.CORRUPT, BackupHealthStatus.MISSING]),
    );
    // Totals and each tree's protection come from one summary call, not a call per tree.
    await screen.findByRole('region', { name: 'At a glance' });
    expect(requests.summaries).toBe(1);
  });

  it('shows the alerts that would fire now, critical first, linking to their scope and operation', async () => {
    const now = Date.now();
    const { app, requests } = server([
      create(ActiveAlertSchema, {
        alertName: 'StoreBackupOverdue',
        severity: 'warning',
        summary: 'No successful backup of orders within twice its cadence',
        scope: 'orders',
        since: timestampFromMs(now - 3 * HOUR),
      }),
      create(ActiveAlertSchema, {
        alertName: 'StoreBackupFailed',
        severity: 'critical',
        summary: 'A backup of ledger failed',
        description: 'disk full',
        scope: 'ledger',
        operationId: 'op-9',
        since: timestampFromMs(now - HOUR),
      }),
    ]);
    renderApp(app, '/');
    const section = await screen.findByRole('region', { name: /^Alerts/ });
    const rows = await within(section).findAllByRole('row', { name: /backup/ });
    // Critical first, whatever the server's order; the severity in words, the label as tooltip.
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^CriticalA backup of ledger faileddisk full/),
      expect.stringMatching(/^WarningNo successful backup of orders/),
    ]);
    expect(within(rows[0]!).getByText('Critical').getAttribute('title')).toBe('critical');
    expect(within(rows[0]!).getByText('A backup of ledger failed').getAttribute('title')).toBe(
      'StoreBackupFailed',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'tree ledger' }).getAttribute('href')).toBe(
      '/trees/ledger',
    );
    expect(
      within(rows[0]!)
        .getByRole('link', { name: /Operation op-9/ })
        .getAttribute('href'),
    ).toBe('/operations/op-9');
    expect(within(section).getByText('2')).toBeTruthy();
    expect(requests.alerts).toBe(1);
  });

  it('says in words that no alert would fire, and what was checked', async () => {
    const { app } = server([]);
    renderApp(app, '/');
    const section = await screen.findByRole('region', { name: /^Alerts/ });
    expect(
      await within(section).findByText(
        'No alerts: nothing the alert rules watch for is happening now',
      ),
    ).toBeTruthy();
    expect(section.textContent).toMatch(/Checked .*failed, overdue and corrupt backups/);
  });
});
