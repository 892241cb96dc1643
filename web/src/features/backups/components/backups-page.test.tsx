import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BackupHealthStatus, StoreBackupApiOperation } from '@store/contract';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { renderApp } from '../../../testing/render-app';
import { backupsServer, manifest } from './backups-test-server';

const full = manifest({ backupId: 'bk-1', name: 'nightly' });
const corrupt = manifest({
  backupId: 'bk-2',
  name: 'broken',
  treeId: 'users',
  lastHealthStatus: BackupHealthStatus.CORRUPT,
  lastVerifiedAt: timestampFromMs(Date.now() - 3 * 86_400_000),
});

/** The button once the capability probe has enabled it (GuardedButton re-renders it). */
async function enabledButton(name: string): Promise<HTMLButtonElement> {
  return waitFor(() => {
    const button = screen.getByRole('button', { name }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    return button;
  });
}

describe('backups catalog', () => {
  it('shows one page of rows with their health badge, the filters from the URL and keyset paging', async () => {
    const { app, calls } = backupsServer({
      pages: { '': { backups: [full, corrupt], next: 'tok-2' }, 'tok-2': { backups: [full] } },
    });
    const { router } = renderApp(app, '/backups?kind=FULL');
    const rows = await screen.findAllByTestId('backup-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Never verified')).toBeTruthy();
    expect(within(rows[1]!).getByText('Corrupt')).toBeTruthy();
    expect(calls.list[0]).toMatchObject({ kind: 1, pageToken: '', pageSize: 50 });

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getAllByTestId('backup-row')).toHaveLength(1));
    expect(router.state.location.search).toBe('?kind=FULL&page=tok-2');
    expect(calls.list.at(-1)).toMatchObject({ pageToken: 'tok-2', kind: 1 });

    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getAllByTestId('backup-row')).toHaveLength(2));
    expect(router.state.location.search).toBe('?kind=FULL');

    fireEvent.change(screen.getByLabelText('Tree'), { target: { value: 'users' } });
    await waitFor(() => expect(router.state.location.search).toBe('?tree=users&kind=FULL'));
    await waitFor(() => expect(screen.getAllByTestId('backup-row')).toHaveLength(1));
    expect(calls.list.at(-1)).toMatchObject({ treeId: 'users' });
  });

  it("names a set member as one, not by the set's id, and links to the whole set", async () => {
    const member = manifest({ backupId: 'bk-3', name: 'month end', setId: 'set_0f8e-long-id' });
    const { app, calls } = backupsServer({ pages: { '': { backups: [member] } } });
    const { router } = renderApp(app, '/backups');
    const [row] = await screen.findAllByTestId('backup-row');
    expect(row!.textContent).not.toContain('set_0f8e-long-id');
    const link = within(row!).getByRole('link', { name: /^Set member of month end/ });
    expect(link.getAttribute('title')).toBe('Backup set set_0f8e-long-id');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe('?set=set_0f8e-long-id'));
    await waitFor(() => expect(calls.list.at(-1)).toMatchObject({ setId: 'set_0f8e-long-id' }));
  });

  it('says so when the catalog is empty', async () => {
    const { app } = backupsServer();
    renderApp(app, '/backups');
    expect(await screen.findByText('No backups yet')).toBeTruthy();
  });

  it('checks the start form before sending, then starts and opens the operation', async () => {
    const { app, calls } = backupsServer({ pages: { '': { backups: [full] } } });
    const { router } = renderApp(app, '/backups');
    fireEvent.click(await enabledButton('Start backup'));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Page size (optional)'), {
      target: { value: '20000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start full backup' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('Tree is required')).toBeTruthy();
    expect(
      within(dialog).getByText('Page size must be a whole number from 1 to 10,000'),
    ).toBeTruthy();
    expect(calls.startBackup).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'weekly' } });
    fireEvent.change(within(dialog).getByLabelText('Tree'), { target: { value: 'orders' } });
    fireEvent.change(within(dialog).getByLabelText('Page size (optional)'), {
      target: { value: '500' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start full backup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/op-full'));
    expect(calls.startBackup).toHaveLength(1);
    expect(calls.startBackup[0]).toMatchObject({
      name: 'weekly',
      scope: { treeId: 'orders' },
      pageSize: 500,
    });
  });

  it('offers only the chosen tree’s backups as an incremental’s base, the newest preselected', async () => {
    const other = manifest({ backupId: 'bk-u', name: 'users full', treeId: 'users' });
    const older = manifest({
      backupId: 'bk-0',
      name: 'first',
      createdAt: timestampFromMs(Date.UTC(2024, 11, 1)),
    });
    const { app, calls } = backupsServer({ pages: { '': { backups: [older, full, other] } } });
    renderApp(app, '/backups');
    fireEvent.click(await enabledButton('Start backup'));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Incremental' }));
    fireEvent.change(within(dialog).getByLabelText('Tree'), { target: { value: 'orders' } });
    const base = within(dialog).getByLabelText('Base backup');
    await waitFor(() => expect(within(base).getAllByRole('option')).toHaveLength(3));
    expect(within(base).queryByText(/users full/)).toBeNull();
    expect(calls.list.some((request) => request.treeId === 'orders')).toBe(true);
    // The tree's newest backup is the base unless the user picks another.
    await waitFor(() => expect((base as HTMLSelectElement).value).toBe('bk-1'));
    expect(within(base).getByText(/nightly .*· newest/)).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'inc' } });
    fireEvent.change(base, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start incremental backup' }));
    expect(within(dialog).getByText('Pick the backup to build on')).toBeTruthy();
    fireEvent.change(base, { target: { value: 'bk-0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start incremental backup' }));
    await waitFor(() => expect(calls.startIncremental).toHaveLength(1));
    expect(calls.startIncremental[0]).toMatchObject({ baseBackupId: 'bk-0', name: 'inc' });
  });

  it('Start backup with no tree explains that a backup needs one and links to Trees', async () => {
    const { app, calls } = backupsServer({ trees: [] });
    const { router } = renderApp(app, '/backups');
    fireEvent.click(await enabledButton('Start backup'));
    const notice = within(screen.getByRole('dialog')).getByTestId('no-trees-to-back-up');
    expect(notice.textContent).toMatch(/has no tree to back up yet/);
    fireEvent.click(within(notice).getByRole('link', { name: 'Trees page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trees'));
    expect(calls.startBackup).toEqual([]);
  });

  it('disables Start backup with the reason when the probe does not allow it', async () => {
    const { app } = backupsServer({
      pages: { '': { backups: [full] } },
      allowed: [StoreBackupApiOperation.LIST_BACKUPS],
    });
    renderApp(app, '/backups');
    expect(await screen.findByText('Your role in tenant acme does not allow this')).toBeTruthy();
    const start = screen.getByRole('button', { name: 'Start backup' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
  });
});
