import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  durationFromMs,
  durationToMs,
  IdentityService,
  StoreBackupApiOperation,
  StoreOperationPageSchema,
  TreeDataService,
} from '@store/contract';
import { create } from '@bufbuild/protobuf';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const MIN_MS = 60_000;

/** A backup service that registers schedules like the real one: clamped up to a minimum. */
function server(options: { knownTree?: string } = {}) {
  const registered = new Map<string, number>();
  const requests: { incremental: boolean; ms: number }[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, {
      listTrees: () => ({ trees: [{ treeId: 'orders' }, { treeId: 'users' }] }),
    });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      probeCapabilities: (req) => ({
        treeId: req.scope?.treeId ?? '',
        allowedOperations: [
          StoreBackupApiOperation.SCHEDULE_BACKUP,
          StoreBackupApiOperation.CANCEL_SCHEDULE,
        ],
      }),
      getScopeStatus: (req) => {
        if (req.scope?.treeId !== (options.knownTree ?? 'orders')) return { found: false };
        const full = registered.get('full');
        return {
          found: true,
          scope: req.scope,
          fullScheduleRegistered: full !== undefined,
          runtimeFullBackupInterval: full === undefined ? undefined : durationFromMs(full),
          chainDepth: 2,
        };
      },
      scheduleBackup: (req) => {
        const ms = durationToMs(req.interval);
        requests.push({ incremental: req.incremental, ms });
        const effective = Math.max(ms, MIN_MS);
        registered.set(req.incremental ? 'incremental' : 'full', effective);
        return { scheduled: true, effectiveInterval: durationFromMs(effective) };
      },
    });
  };
  return { requests, app: createTestApp(routes, { session: testSession }) };
}

describe('schedules page', () => {
  it('checks the interval before sending and says what the server clamped it to', async () => {
    const { app, requests } = server();
    renderApp(app, '/schedules?tree=orders');
    const full = await screen.findByRole('form', { name: 'Full backups schedule' });
    const interval = within(full).getByLabelText('Full backup interval');

    fireEvent.change(interval, { target: { value: '0' } });
    fireEvent.click(within(full).getByRole('button', { name: 'Register schedule' }));
    expect(await within(full).findByText('The interval must be greater than zero.')).toBeTruthy();
    expect(interval.getAttribute('aria-invalid')).toBe('true');
    expect(requests).toEqual([]);

    fireEvent.change(interval, { target: { value: '10' } });
    fireEvent.change(within(full).getByLabelText('Unit'), { target: { value: 'seconds' } });
    fireEvent.click(within(full).getByRole('button', { name: 'Register schedule' }));
    const notice = await screen.findByText(/^Clamped/, { selector: '[role="status"]' });
    expect(notice.textContent).toMatch(/^Clamped to 1 minute: the requested 10 seconds/);
    expect(requests).toEqual([{ incremental: false, ms: 10_000 }]);
    // The status refreshes: the full schedule is now registered at the effective interval.
    expect(await screen.findAllByText(/every 1 minute/i)).not.toHaveLength(0);
  });

  it('says when the server does not know the tree', async () => {
    const { app } = server({ knownTree: 'users' });
    renderApp(app, '/schedules?tree=orders');
    expect(await screen.findByText('Unknown tree orders')).toBeTruthy();
  });
});
