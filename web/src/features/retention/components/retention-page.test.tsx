import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  BackupKind,
  BackupLifecycleService,
  IdentityService,
  KeepReasonKind,
  RetentionAction,
  RetentionPreviewSchema,
  StoreOperationKind,
  StoreOperationState,
  TreeDataService,
  type RetentionPreviewRequest,
  type RetentionRules,
} from '@store/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

interface FakeBackup {
  id: string;
  createdAt: number;
}

/**
 * The lifecycle service as the real one answers for full backups and keep-last: previews of the
 * stored or draft rules with a fingerprint of catalog and rules, and an apply refused when the
 * fingerprint no longer matches. `moveOnFirstApply` adds a backup just before the first apply.
 */
function lifecycleServer(roles: string[], options: { moveOnFirstApply?: boolean } = {}) {
  let backups: FakeBackup[] = [1, 2, 3, 4].map((n) => ({ id: `b${n}`, createdAt: n * 60_000 }));
  let stored: RetentionRules | undefined;
  // As the server: a scope without rules answers the default for new rules (off).
  let applyAfterSchedule = false;
  const saves: { keepLast: number; applyAfterSchedule: boolean | undefined }[] = [];
  let moved = false;
  const previews: RetentionPreviewRequest[] = [];
  const applied: string[] = [];

  const plan = (rules: RetentionRules | undefined) => {
    const newestFirst = [...backups].sort((a, b) => b.createdAt - a.createdAt);
    const keep = rules && rules.keepLast > 0 ? rules.keepLast : newestFirst.length;
    return { kept: newestFirst.slice(0, keep), deleted: newestFirst.slice(keep), keep };
  };
  const fingerprint = (rules: RetentionRules | undefined) =>
    `${backups.map((b) => b.id).join(',')}|${rules?.keepLast ?? 'none'}`;

  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles }] }),
    });
    router.service(TreeDataService, { listTrees: () => ({ trees: [{ treeId: 'inventory' }] }) });
    router.service(BackupLifecycleService, {
      getRetentionRules: (req) => ({
        scope: req.scope,
        configured: stored !== undefined,
        applyAfterSchedule,
        ...(stored && { rules: stored, updatedAt: timestampFromMs(0), updatedBy: 'token:t-1' }),
      }),
      setRetentionRules: (req) => {
        stored = req.rules;
        applyAfterSchedule = req.applyAfterSchedule ?? applyAfterSchedule;
        saves.push({
          keepLast: req.rules?.keepLast ?? 0,
          applyAfterSchedule: req.applyAfterSchedule,
        });
        return { scope: req.scope, rules: req.rules, configured: true, applyAfterSchedule };
      },
      previewRetention: (req) => {
        previews.push(req);
        const rules = req.draftRules ?? stored;
        const { kept, deleted, keep } = plan(rules);
        const entry = (b: FakeBackup, action: RetentionAction, index: number) => ({
          backupId: b.id,
          name: `inventory full ${b.id.slice(1)}`,
          createdAt: timestampFromMs(b.createdAt),
          byteSize: 1024n,
          kind: BackupKind.FULL,
          action,
          reasons:
            action === RetentionAction.KEEP
              ? [
                  rules
                    ? { kind: KeepReasonKind.LAST, text: `last ${index + 1} of ${keep}` }
                    : { kind: KeepReasonKind.NO_RULES, text: 'no rules' },
                ]
              : [],
        });
        return create(RetentionPreviewSchema, {
          scope: req.scope,
          configured: stored !== undefined,
          fingerprint: fingerprint(rules),
          deleteCount: BigInt(deleted.length),
          keepCount: BigInt(kept.length),
          bytesFreed: BigInt(deleted.length * 1024),
          entries: [
            ...deleted.map((b, i) => entry(b, RetentionAction.DELETE, i)),
            ...kept.map((b, i) => entry(b, RetentionAction.KEEP, i)),
          ],
        });
      },
      startRetentionApply: (req) => {
        if (options.moveOnFirstApply && !moved) {
          moved = true;
          backups = [...backups, { id: 'b5', createdAt: 5 * 60_000 }];
        }
        if (req.expectedFingerprint !== fingerprint(stored)) {
          throw new ConnectError(
            'the catalog or the retention rules of inventory changed since the preview; preview again and apply that preview',
            Code.FailedPrecondition,
          );
        }
        const { deleted } = plan(stored);
        applied.push(...deleted.map((b) => b.id));
        backups = backups.filter((b) => !deleted.includes(b));
        return { operationId: 'op-1', kind: StoreOperationKind.RETENTION_APPLY };
      },
      getLifecycleOperationStatus: (req) => ({
        status: {
          operationId: req.operationId,
          state: StoreOperationState.SUCCEEDED,
          progress: { done: BigInt(applied.length), total: BigInt(applied.length) },
          result: {
            case: 'retentionApply',
            value: {
              scope: { treeId: 'inventory' },
              deletedCount: BigInt(applied.length),
              bytesFreed: BigInt(applied.length * 1024),
              keptCount: BigInt(backups.length),
            },
          },
        },
      }),
    });
  };
  return { app: createTestApp(routes, { session: testSession }), previews, applied, saves };
}

const rulesRegion = () => screen.findByRole('region', { name: 'Rules of inventory' });

describe('retention page', () => {
  it('a viewer previews draft rules live with keep reasons; Save and Apply say the role they need', async () => {
    const server = lifecycleServer(['viewer']);
    renderApp(server.app, '/retention?tree=inventory');
    const rules = await rulesRegion();
    expect(await screen.findByText('0 to delete (0 B)')).toBeTruthy();

    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '2' } });
    const deleted = await screen.findByRole(
      'table',
      { name: 'Would be deleted' },
      { timeout: 3000 },
    );
    await waitFor(() => expect(within(deleted).getAllByRole('row')).toHaveLength(3));
    expect(within(deleted).getByText('inventory full 1')).toBeTruthy();
    expect(within(deleted).getByText('inventory full 2')).toBeTruthy();
    const kept = screen.getByRole('table', { name: 'Kept, and why' });
    // One phrase per reason: the kind is not said twice ("Last · last 1 of 2").
    expect(within(kept).getByText('Last 1 of 2')).toBeTruthy();
    expect(within(kept).getByText('Last 1 of 2').getAttribute('title')).toBe('LAST');
    expect(within(kept).queryByText('Last')).toBeNull();
    // The draft went to the server; nothing was saved.
    expect(server.previews.at(-1)?.draftRules?.keepLast).toBe(2);
    expect(
      screen.getByRole('heading', { name: 'Preview of these rules (not saved)' }),
    ).toBeTruthy();

    const save = within(rules).getByRole('button', { name: 'Save rules' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(
      within(rules).getByText('Needs the admin role (you are a viewer in tenant acme).'),
    ).toBeTruthy();
    expect(
      screen.getByText('Needs the operator role (you are a viewer in tenant acme).'),
    ).toBeTruthy();
  });

  it('unsaved rules ask before the page is left: stay keeps the draft, leave drops it (issue 33)', async () => {
    const server = lifecycleServer(['admin']);
    const { router } = renderApp(server.app, '/retention?tree=inventory');
    const rules = await rulesRegion();
    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '2' } });
    await act(() => router.navigate('/trees'));
    const ask = await screen.findByRole('dialog', {
      name: 'Leave without saving the retention rules of inventory?',
    });
    fireEvent.click(within(ask).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/retention');
    expect((within(rules).getByLabelText('Keep last') as HTMLInputElement).value).toBe('2');

    await act(() => router.navigate('/trees'));
    const again = await screen.findByRole('dialog', {
      name: 'Leave without saving the retention rules of inventory?',
    });
    fireEvent.click(within(again).getByRole('button', { name: 'Leave and lose the changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trees'));
  });

  it('saved rules leave without asking', async () => {
    const server = lifecycleServer(['admin']);
    const { router } = renderApp(server.app, '/retention?tree=inventory');
    const rules = await rulesRegion();
    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '2' } });
    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));
    await screen.findByRole('heading', { name: 'Preview of the saved rules' });
    await act(() => router.navigate('/trees'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trees'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an admin saves, then applies after a confirm naming count and bytes; a stale preview is refused and a new one offered', async () => {
    const server = lifecycleServer(['admin'], { moveOnFirstApply: true });
    renderApp(server.app, '/retention?tree=inventory');
    const rules = await rulesRegion();
    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '2' } });
    expect(await screen.findByText('Save rules first', { exact: false })).toBeTruthy();
    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));
    await screen.findByRole('heading', { name: 'Preview of the saved rules' });

    fireEvent.click(await screen.findByRole('button', { name: 'Delete 2 backups (2.0 KiB)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply retention to inventory?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 backups (2.0 KiB)' }));

    // A backup arrived since the preview: the server refuses, nothing is deleted.
    const alert = await waitFor(() => {
      const found = screen
        .getAllByRole('alert')
        .find((node) => node.textContent?.includes('Nothing was deleted:'));
      if (!found)
        throw new Error(
          screen
            .getAllByRole('alert')
            .map((n) => n.textContent)
            .join(' | '),
        );
      return found;
    });
    expect(alert?.textContent).toContain('changed since the preview');
    expect(server.applied).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Preview again' }));
    const again = await screen.findByRole('dialog', { name: 'Apply retention to inventory?' });
    const confirm = await within(again).findByRole('button', {
      name: 'Delete 3 backups (3.0 KiB)',
    });
    fireEvent.click(confirm);

    // It joins the tray like any tracked operation.
    expect(await screen.findByText('Started retention apply')).toBeTruthy();
    const progress = await screen.findByTestId('retention-progress');
    await waitFor(() =>
      expect(progress.textContent).toContain('Deleted 3 backups, 3.0 KiB freed; 2 kept'),
    );
    expect(progress.textContent).toContain('Succeeded');
    // The apply is a tracked operation like any other: its page is one click away.
    expect(
      within(progress).getByRole('link', { name: 'operation op-1' }).getAttribute('href'),
    ).toBe('/operations/op-1');
    expect(server.applied.sort()).toEqual(['b1', 'b2', 'b3']);
  });

  it('turning on "apply after each scheduled backup" is a choice at save: the confirm shows what these rules delete now, and nothing is saved until it is confirmed', async () => {
    const server = lifecycleServer(['admin']);
    renderApp(server.app, '/retention?tree=inventory');
    const rules = await rulesRegion();
    const auto = within(rules).getByRole('checkbox', {
      name: 'Apply after each scheduled backup of this scope',
    }) as HTMLInputElement;
    // New rules start with it off (the server's default for new rules).
    expect(auto.checked).toBe(false);
    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '1' } });
    fireEvent.click(auto);
    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Apply these rules by themselves after each scheduled backup of inventory?',
    });
    // Beside the choice, the preview of exactly these rules: what they would delete now.
    const now = await within(dialog).findByTestId('auto-apply-now');
    expect(now.textContent).toContain('Now, they would delete 3 backups (3.0 KiB); 1 backup kept');
    expect(
      within(now)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.split(' ').slice(0, 3).join(' ')),
    ).toEqual(['inventory full 3', 'inventory full 2', 'inventory full 1']);
    expect(dialog.textContent).toContain('stops and deletes nothing');
    // "Not now" saves nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.saves).toEqual([]);

    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));
    const again = await screen.findByRole('dialog', {
      name: 'Apply these rules by themselves after each scheduled backup of inventory?',
    });
    await within(again).findByTestId('auto-apply-now');
    fireEvent.click(
      within(again).getByRole('button', { name: 'Save and apply after each backup' }),
    );
    await screen.findByRole('heading', { name: 'Preview of the saved rules' });
    expect(server.saves).toEqual([{ keepLast: 1, applyAfterSchedule: true }]);
    expect(
      await screen.findByText('They apply by themselves after each scheduled backup.'),
    ).toBeTruthy();

    // Once on, changing the rules saves without asking again; with it off, too.
    fireEvent.change(within(rules).getByLabelText('Keep last'), { target: { value: '2' } });
    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));
    await waitFor(() => expect(server.saves).toHaveLength(2));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(auto);
    fireEvent.click(within(rules).getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(server.saves.at(-1)).toEqual({ keepLast: 2, applyAfterSchedule: false }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
