import { create } from '@bufbuild/protobuf';
import { backupV1, StoreOperationState } from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/render-app';
import { backupsServer, manifest } from './backups-test-server';

const described = create(backupV1.BackupChainResponseSchema, {
  found: true,
  manifest: manifest({ backupId: 'bk-1', name: 'nightly' }),
  chainBackupIds: ['bk-1'],
});

async function openConfirmation(keyPrefix = '') {
  fireEvent.click(
    await waitFor(() => {
      const button = screen.getByRole('button', { name: 'Restore' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      return button;
    }),
  );
  const dialog = screen.getByRole('dialog');
  fireEvent.click(within(dialog).getByRole('radio', { name: /In place/ }));
  if (keyPrefix) {
    fireEvent.change(within(dialog).getByLabelText('Key prefix scope (optional)'), {
      target: { value: keyPrefix },
    });
  }
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
  return within(dialog).getByRole('group', { name: 'Confirm the in-place restore' });
}

describe('the in-place restore confirmation', () => {
  it('previews the restore of the same scope: counts first, then each difference as a JSON diff', async () => {
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => false } });
    renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation('eu/');
    const preview = within(confirm).getByRole('region', { name: 'Restore preview' });
    const list = await within(preview).findByLabelText('Restore preview counts');
    expect(list.textContent).toBe('Added1Changed1Removed0Unchanged5');
    const differences = await within(preview).findAllByTestId('difference');
    expect(differences.map((d) => d.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'a Changed { −before: "v": 2 +after: "v": 1 }',
      'b Added+after: "new"',
    ]);
    // The counts come before the differences in the dialog.
    expect(
      list.compareDocumentPosition(differences[0]!) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    fireEvent.click(within(preview).getByRole('radio', { name: 'Added' }));
    await waitFor(() =>
      expect(
        within(preview)
          .getAllByTestId('difference')
          .map((d) => d.textContent?.replace(/\s+/g, ' ').trim()),
      ).toEqual(['b Added+after: "new"']),
    );
    expect(calls.previews[0]).toMatchObject({
      backupId: 'bk-1',
      cold: false,
      scope: { treeId: 'orders', keyPrefix: 'eu/' },
    });
  });

  it('"Restore in place" is disabled, its reason shown, until the preview has succeeded', async () => {
    let state = StoreOperationState.RUNNING;
    const { app } = backupsServer({
      described,
      insight: { treeChanged: () => false, previewState: () => state },
    });
    renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview running');
    const restore = within(confirm).getByRole('button', { name: 'Restore in place' });
    expect((restore as HTMLButtonElement).disabled).toBe(true);
    expect(restore.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(confirm).getByTestId('restore-gate-reason').textContent).toContain(
      'waits for the preview of exactly this restore to finish',
    );
    state = StoreOperationState.SUCCEEDED;
    await within(confirm).findByLabelText('Restore preview counts', {}, { timeout: 5000 });
    await waitFor(() => expect((restore as HTMLButtonElement).disabled).toBe(false));
    expect(within(confirm).queryByTestId('restore-gate-reason')).toBeNull();
  });

  it('a changed prefix needs its own preview; going back to the same request reuses the first', async () => {
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => false } });
    renderApp(app, '/backups/bk-1');
    let confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview counts');
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Back' }));
    fireEvent.change(within(dialog).getByLabelText('Key prefix scope (optional)'), {
      target: { value: 'eu/' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    confirm = within(dialog).getByRole('group', { name: 'Confirm the in-place restore' });
    await waitFor(() => expect(calls.previews).toHaveLength(2));
    expect(calls.previews[1]).toMatchObject({ scope: { keyPrefix: 'eu/' } });

    fireEvent.click(within(confirm).getByRole('button', { name: 'Back' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    confirm = within(dialog).getByRole('group', { name: 'Confirm the in-place restore' });
    await within(confirm).findByLabelText('Restore preview counts');
    expect(calls.previews).toHaveLength(2);
  });

  it('when the tree changed after the preview, restores nothing and asks for a new preview', async () => {
    let changed = false;
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => changed } });
    renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview counts');
    changed = true;
    const restore = within(confirm).getByRole('button', { name: 'Restore in place' });
    fireEvent.click(restore);
    const warning = await within(confirm).findByRole('alert');
    expect(warning.textContent).toContain('The tree changed since the preview; preview again.');
    expect(warning.textContent).toContain('changed after this preview was made (sequence 7 → 9)');
    expect((restore as HTMLButtonElement).disabled).toBe(true);
    expect(calls.startRestore).toEqual([]);
    expect(within(confirm).queryByRole('button', { name: 'Restore anyway' })).toBeNull();
  });

  it('"Preview again" starts a new preview, clears the warning, and the restore then goes ahead', async () => {
    let changed = false;
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => changed } });
    const { router } = renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview counts');
    changed = true;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore in place' }));
    await within(confirm).findByRole('alert');
    changed = false;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Preview again' }));
    await waitFor(() => expect(calls.previews).toHaveLength(2));
    expect(within(confirm).queryByRole('alert')).toBeNull();
    const restore = within(confirm).getByRole('button', { name: 'Restore in place' });
    await waitFor(() => expect((restore as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(restore);
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/op-restore'));
    expect(calls.startRestore).toHaveLength(1);
  });
});
