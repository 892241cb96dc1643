import { create } from '@bufbuild/protobuf';
import {
  BackupHealthStatus,
  StoreOperationKind,
  StoreOperationState,
  StoreRestoreMode,
  backupV1,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { operation } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { backupsServer, manifest } from './backups-test-server';

/** Four bytes and their SHA-256 (`printf 'data' | sha256sum`). */
const ARTIFACT_BYTES = new TextEncoder().encode('data');
const ARTIFACT_SHA256 = '3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7';

function described(
  health = BackupHealthStatus.HEALTHY,
  artifact = { byteSize: 2048n, sha256: 'ab'.repeat(32) },
) {
  return create(backupV1.BackupChainResponseSchema, {
    found: true,
    manifest: manifest({
      backupId: 'bk-1',
      name: 'nightly',
      lastHealthStatus: health,
      artifacts: [{ artifactId: 'part-00001', ...artifact, entryCount: 3n }],
    }),
    chainBackupIds: ['bk-0', 'bk-1'],
    dependantBackupIds: ['bk-2'],
  });
}

async function enabledButton(name: string): Promise<HTMLButtonElement> {
  return waitFor(() => {
    const button = screen.getByRole('button', { name }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    return button;
  });
}

describe('backup detail', () => {
  it('says clearly when the backup does not exist', async () => {
    const { app } = backupsServer({ described: null });
    renderApp(app, '/backups/bk-gone');
    expect(await screen.findByText('No backup bk-gone in tenant acme')).toBeTruthy();
  });

  it('draws the chain full → incrementals by name with links, and lists artifacts with checksums', async () => {
    const { app } = backupsServer({
      described: described(),
      names: { 'bk-0': 'weekly full', 'bk-2': 'hourly' },
    });
    renderApp(app, '/backups/bk-1');
    const chain = await screen.findByRole('list', { name: 'Restore chain, full backup first' });
    const link = await within(chain).findByRole('link', { name: 'weekly full' });
    expect(link.getAttribute('href')).toBe('/backups/bk-0');
    const links = within(chain).getAllByRole('listitem');
    expect(links.map((li) => li.textContent)).toEqual([
      'Fullweekly fullbk-0Copy',
      'Incremental 1nightly (this backup)bk-1Copy',
    ]);
    expect(screen.getByRole('button', { name: 'Copy backup id bk-0' })).toBeTruthy();
    expect(screen.getByText('ab'.repeat(32))).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'hourly' })).toBeTruthy();
    // The breadcrumb names the page.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.textContent).toBe('Backupsnightly');
  });

  it('says the manifest in words: its changes, entries with deletions, never verified once', async () => {
    const response = described(BackupHealthStatus.UNSPECIFIED);
    if (response.manifest) {
      Object.assign(response.manifest, {
        fromSequence: 3084n,
        toSequence: 3087n,
        entryCount: 3n,
        tombstoneCount: 3n,
      });
    }
    const { app } = backupsServer({ described: response });
    renderApp(app, '/backups/bk-1');
    const changes = await screen.findByText('changes after sequence 3,084 up to 3,087');
    expect(changes.getAttribute('title')).toBe('Sequence range (3084, 3087]');
    expect(screen.getByText('3 entries, of which 3 deletions')).toBeTruthy();
    const verified = screen.getByText('Last verified').nextElementSibling as HTMLElement;
    expect(verified.textContent).toBe('Never verified');
  });

  it('shows the server’s refusal of a delete with dependants and offers cascade', async () => {
    const { app, calls } = backupsServer({ described: described(), refuseDelete: true });
    const { router } = renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Delete'));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('acme');
    expect(dialog.textContent).toContain('Delete backup nightly in tenant acme');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete backup' }));
    expect(
      await within(dialog).findByText(
        /^This cannot be done in the current state: backup “nightly” cannot be deleted alone: a newer incremental backup depends on it/,
      ),
    ).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: /cascade/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 backups' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/backups'));
    expect(calls.deletes.map((d) => d.cascade)).toEqual([false, true]);
  });

  it('the restore dialog opens on a new tree; in place is a deliberate choice', async () => {
    const { app } = backupsServer({ described: described() });
    renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Restore'));
    const dialog = screen.getByRole('dialog');
    const newTree = within(dialog).getByRole('radio', { name: /Into a new tree/ });
    const inPlace = within(dialog).getByRole('radio', { name: /In place/ });
    expect((newTree as HTMLInputElement).checked).toBe(true);
    expect((inPlace as HTMLInputElement).checked).toBe(false);
    expect(within(dialog).getByLabelText('Target tree')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Start restore' })).toBeTruthy();
    fireEvent.click(inPlace);
    expect(within(dialog).queryByLabelText('Target tree')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('asks to confirm an in-place restore naming tenant and tree, and sends the options', async () => {
    const { app, calls } = backupsServer({
      described: described(),
      insight: { treeChanged: () => false },
    });
    const { router } = renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Restore'));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: /In place/ }));
    fireEvent.change(within(dialog).getByLabelText('Apply batch size (optional)'), {
      target: { value: '0' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText(/Apply batch size must be a whole number/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Apply batch size (optional)'), {
      target: { value: '200' },
    });
    fireEvent.change(within(dialog).getByLabelText('Key prefix scope (optional)'), {
      target: { value: 'eu/' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const confirm = within(dialog).getByRole('group', { name: 'Confirm the in-place restore' });
    expect(confirm.textContent).toContain('tree orders in tenant acme');
    expect(calls.startRestore).toEqual([]);
    // Enabled once the preview of this request has succeeded.
    const restore = within(confirm).getByRole('button', { name: 'Restore in place' });
    await waitFor(() => expect((restore as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(restore);
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/op-restore'));
    expect(calls.startRestore[0]).toMatchObject({
      backupId: 'bk-1',
      mode: StoreRestoreMode.IN_PLACE,
      applyBatchSize: 200,
      scope: { treeId: 'orders', keyPrefix: 'eu/' },
    });
  });

  it('a NEW_TREE restore needs a target; a corrupt backup needs the explicit override', async () => {
    const { app, calls } = backupsServer({ described: described(BackupHealthStatus.CORRUPT) });
    renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Restore'));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: /Into a new tree/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start restore' }));
    expect(within(dialog).getByText('Target tree is required')).toBeTruthy();
    expect(within(dialog).getByText(/Confirm that you want to restore/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Target tree'), { target: { value: 'copy' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start restore' }));
    expect(calls.startRestore).toEqual([]);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /restore it anyway/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start restore' }));
    await waitFor(() => expect(calls.startRestore).toHaveLength(1));
    expect(calls.startRestore[0]).toMatchObject({
      mode: StoreRestoreMode.NEW_TREE,
      targetTreeId: 'copy',
    });
  });

  describe('an export is saved only when its bytes are the manifest’s', () => {
    const expected = { byteSize: BigInt(ARTIFACT_BYTES.length), sha256: ARTIFACT_SHA256 };
    let saved: Blob[];
    beforeEach(() => {
      saved = [];
      vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
        saved.push(blob as Blob);
        return 'blob:test';
      });
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    });
    afterEach(() => vi.restoreAllMocks());

    async function exportWith(exported: Uint8Array[]) {
      const { app, calls } = backupsServer({
        described: described(BackupHealthStatus.HEALTHY, expected),
        exported,
      });
      renderApp(app, '/backups/bk-1');
      const button = await enabledButton('Export part-00001');
      const describesBefore = calls.describes;
      fireEvent.click(button);
      return { calls, describesBefore };
    }

    it('bytes whose SHA-256 matches are saved, the toast says they were verified, and the backup is read again', async () => {
      const { calls, describesBefore } = await exportWith([
        ARTIFACT_BYTES.subarray(0, 2),
        ARTIFACT_BYTES.subarray(2),
      ]);
      expect(await screen.findByText(/SHA-256 verified against the manifest/)).toBeTruthy();
      expect(saved).toHaveLength(1);
      expect(new Uint8Array(await saved[0]!.arrayBuffer())).toEqual(ARTIFACT_BYTES);
      // The server may have recorded the export as the backup's check: its last-verified shows.
      await waitFor(() => expect(calls.describes).toBeGreaterThan(describesBefore));
    });

    it('bytes of the right size with another SHA-256 are refused and not saved', async () => {
      await exportWith([new TextEncoder().encode('dat!')]);
      // The sentence, and again the raw message under Details.
      expect(
        (await screen.findAllByText(/SHA-256 of part-00001 is .*nothing was saved/)).length,
      ).toBeGreaterThan(0);
      expect(screen.getByText('Export failed')).toBeTruthy();
      expect(saved).toEqual([]);
    });

    it('an empty download (the server sent empty chunks) is refused and not saved', async () => {
      await exportWith([new Uint8Array(0), new Uint8Array(0)]);
      expect(
        (await screen.findAllByText(/server sent no bytes for part-00001/)).length,
      ).toBeGreaterThan(0);
      expect(saved).toEqual([]);
    });
  });

  it('exporting a corrupt backup asks for the override first', async () => {
    const { app } = backupsServer({ described: described(BackupHealthStatus.MISSING) });
    renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Export part-00001'));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('missing');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export anyway' }));
    expect(within(dialog).getByText('Tick the box to export it anyway.')).toBeTruthy();
  });

  it('"Verify now" starts a health check of this backup, followed in the tray, its finding in the toast', async () => {
    const { app, calls } = backupsServer({
      described: described(),
      healthCheck: operation({
        operationId: 'op-health',
        kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
        targetId: 'bk-1',
        state: StoreOperationState.SUCCEEDED,
        result: {
          case: 'healthReport',
          value: { backupId: 'bk-1', status: BackupHealthStatus.CORRUPT, issues: [{}] },
        },
      }),
    });
    renderApp(app, '/backups/bk-1');
    fireEvent.click(await enabledButton('Verify now'));
    await waitFor(() => expect(calls.healthChecks.map((c) => c.backupId)).toEqual(['bk-1']));
    expect(await screen.findByText('Started health check')).toBeTruthy();
    const tray = screen.getByRole('complementary', { name: 'Operations tray' });
    fireEvent.click(within(tray).getByRole('button', { name: /^Operations:/ }));
    expect(await within(tray).findByText('Succeeded — corrupt')).toBeTruthy();
    expect(await screen.findByText('Health check succeeded — corrupt')).toBeTruthy();
  });

  it('a viewer sees "Verify now" disabled, with the reason', async () => {
    // The server's probe allows a viewer no start; the console names the role that would.
    const { app, calls } = backupsServer({
      described: described(),
      roles: ['viewer'],
      allowed: [],
    });
    renderApp(app, '/backups/bk-1');
    const reason = 'Needs the operator role (you are a viewer in tenant acme).';
    const button = await waitFor(() => {
      const found = screen.getByRole('button', { name: 'Verify now' }) as HTMLButtonElement;
      expect(found.title).toBe(reason);
      return found;
    });
    expect(button.disabled).toBe(true);
    // Said as text beside the button too, not only as a tooltip.
    expect(screen.getAllByText(reason).length).toBeGreaterThan(0);
    fireEvent.click(button);
    expect(calls.healthChecks).toEqual([]);
  });
});
