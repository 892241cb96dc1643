import { create } from '@bufbuild/protobuf';
import { backupV1 } from '@store/contract';
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

  it('when the tree changed after the preview, says so and restores only on "Restore anyway"', async () => {
    let changed = false;
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => changed } });
    const { router } = renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview counts');
    changed = true;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore in place' }));
    const warning = await within(confirm).findByRole('alert');
    expect(warning.textContent).toContain('changed after this preview was made (sequence 7 → 9)');
    expect(calls.startRestore).toEqual([]);

    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/op-restore'));
    expect(calls.startRestore).toHaveLength(1);
  });

  it('"Preview again" starts a new preview and clears the warning', async () => {
    let changed = false;
    const { app, calls } = backupsServer({ described, insight: { treeChanged: () => changed } });
    renderApp(app, '/backups/bk-1');
    const confirm = await openConfirmation();
    await within(confirm).findByLabelText('Restore preview counts');
    changed = true;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Restore in place' }));
    await within(confirm).findByRole('alert');
    changed = false;
    fireEvent.click(within(confirm).getByRole('button', { name: 'Preview again' }));
    await waitFor(() => expect(calls.previews).toHaveLength(2));
    expect(within(confirm).queryByRole('alert')).toBeNull();
    expect(within(confirm).getByRole('button', { name: 'Restore in place' })).toBeTruthy();
  });
});
