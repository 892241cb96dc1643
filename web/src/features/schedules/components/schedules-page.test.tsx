import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupScopeRunOutcome,
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
  // Keyed by scope and kind, as the real server keys schedules (tree + key prefix).
  const registered = new Map<string, number>();
  const keyOf = (scope: { treeId: string; keyPrefix?: string } | undefined, kind: string) =>
    `${scope?.treeId ?? ''}|${scope?.keyPrefix ?? ''}|${kind}`;
  const requests: { incremental: boolean; ms: number }[] = [];
  const scopes: { rpc: string; treeId?: string; keyPrefix?: string }[] = [];
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
        scopes.push({ rpc: 'status', treeId: req.scope?.treeId, keyPrefix: req.scope?.keyPrefix });
        if (req.scope?.treeId !== (options.knownTree ?? 'orders')) return { found: false };
        const full = registered.get(keyOf(req.scope, 'full'));
        return {
          found: true,
          scope: req.scope,
          fullScheduleRegistered: full !== undefined,
          runtimeFullBackupInterval: full === undefined ? undefined : durationFromMs(full),
          chainDepth: 2,
          lastRunOutcome: BackupScopeRunOutcome.SKIPPED,
        };
      },
      scheduleBackup: (req) => {
        const ms = durationToMs(req.interval);
        requests.push({ incremental: req.incremental, ms });
        scopes.push({
          rpc: 'schedule',
          treeId: req.scope?.treeId,
          keyPrefix: req.scope?.keyPrefix,
        });
        const effective = Math.max(ms, MIN_MS);
        registered.set(keyOf(req.scope, req.incremental ? 'incremental' : 'full'), effective);
        return { scheduled: true, effectiveInterval: durationFromMs(effective) };
      },
      cancelSchedule: (req) => {
        scopes.push({ rpc: 'cancel', treeId: req.scope?.treeId, keyPrefix: req.scope?.keyPrefix });
        registered.delete(keyOf(req.scope, req.incremental ? 'incremental' : 'full'));
        return {};
      },
    });
  };
  return { requests, scopes, app: createTestApp(routes, { session: testSession }) };
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

  it('a skipped last run points at the overview, where its reason is', async () => {
    const { app } = server();
    renderApp(app, '/schedules?tree=orders');
    const status = await screen.findByRole('region', { name: 'Scope status' });
    expect(within(status).getByText('Skipped')).toBeTruthy();
    const why = within(status).getByRole('link', { name: 'schedule overview' });
    expect(why.getAttribute('href')).toBe('/schedules/overview');
  });

  it('shows, registers and cancels the schedule of a scope with a key prefix, apart from the whole tree', async () => {
    const { app, scopes } = server();
    renderApp(app, '/schedules?tree=orders');
    const prefixForm = await screen.findByRole('form', { name: 'Scope key prefix' });
    fireEvent.change(within(prefixForm).getByLabelText('Key prefix'), {
      target: { value: 'eu/' },
    });
    fireEvent.click(within(prefixForm).getByRole('button', { name: 'Show scope' }));
    expect(await screen.findByText('Tree orders, key prefix eu/')).toBeTruthy();

    const full = await screen.findByRole('form', { name: 'Full backups schedule' });
    fireEvent.change(within(full).getByLabelText('Full backup interval'), {
      target: { value: '2' },
    });
    fireEvent.change(within(full).getByLabelText('Unit'), { target: { value: 'hours' } });
    fireEvent.click(within(full).getByRole('button', { name: 'Register schedule' }));
    expect(await screen.findAllByText(/every 2 hours/i)).not.toHaveLength(0);
    expect(scopes.filter((s) => s.rpc === 'schedule')).toEqual([
      { rpc: 'schedule', treeId: 'orders', keyPrefix: 'eu/' },
    ]);

    fireEvent.click(within(full).getByRole('button', { name: 'Cancel schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the full schedule?' });
    expect(dialog.textContent).toContain('under key prefix eu/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel schedule' }));
    expect(await screen.findByRole('heading', { name: /Full backups Not scheduled/ })).toBeTruthy();
    expect(scopes.filter((s) => s.rpc === 'cancel')).toEqual([
      { rpc: 'cancel', treeId: 'orders', keyPrefix: 'eu/' },
    ]);
    // The whole tree's status was asked without a prefix, the scope's with it.
    const asked = scopes.filter((s) => s.rpc === 'status').map((s) => s.keyPrefix ?? '');
    expect(new Set(asked)).toEqual(new Set(['', 'eu/']));
  });

  it('says when the server does not know the tree', async () => {
    const { app } = server({ knownTree: 'users' });
    renderApp(app, '/schedules?tree=orders');
    expect(await screen.findByText('Unknown tree orders')).toBeTruthy();
  });
});
