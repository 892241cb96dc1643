import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  backupV1,
  type BackupProtection,
  type ListBackupProtectionsRequest,
  type ProtectBackupRequest,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/render-app';
import { backupsServer, manifest } from './backups-test-server';

/** A lifecycle service holding protections in memory, recording the list and protect calls. */
function protections(initial: Record<string, string> = {}) {
  const held = new Map<string, { reason: string; by: string }>(
    Object.entries(initial).map(([id, reason]) => [id, { reason, by: 'token:t-1' }]),
  );
  const lists: ListBackupProtectionsRequest[] = [];
  const protects: ProtectBackupRequest[] = [];
  const asProtection = (backupId: string) => ({
    backupId,
    protectedBy: held.get(backupId)!.by,
    protectedAt: timestampFromMs(Date.UTC(2026, 10, 25)),
    reason: held.get(backupId)!.reason,
  });
  return {
    lists,
    protects,
    service: {
      listBackupProtections: (request: ListBackupProtectionsRequest) => {
        lists.push(request);
        return {
          protections: request.backupIds.filter((id) => held.has(id)).map(asProtection),
        };
      },
      protectBackup: (request: ProtectBackupRequest) => {
        protects.push(request);
        held.set(request.backupId, { reason: request.reason, by: 'token:t-1' });
        return { protection: asProtection(request.backupId) as BackupProtection };
      },
      unprotectBackup: (request: { backupId: string }) => {
        const lifted = asProtection(request.backupId);
        held.delete(request.backupId);
        return { protection: lifted };
      },
    },
  };
}

const detail = create(backupV1.BackupChainResponseSchema, {
  found: true,
  manifest: manifest({ backupId: 'bk-1', name: 'nightly' }),
  chainBackupIds: ['bk-1'],
});

describe('backup protection', () => {
  it('the catalog asks for the protections of its page once and shows a lock on the protected row', async () => {
    const lifecycle = protections({ 'bk-2': 'legal hold 42' });
    const { app } = backupsServer({
      pages: {
        '': {
          backups: [
            manifest({ backupId: 'bk-1', name: 'one' }),
            manifest({ backupId: 'bk-2', name: 'two' }),
          ],
        },
      },
      lifecycle: lifecycle.service,
    });
    renderApp(app, '/backups');
    const badge = await screen.findByTestId('lock-badge');
    expect(badge.closest('tr')?.textContent).toContain('two');
    // Who protected it by name, not by subject.
    expect(badge.title).toBe('Protected by Alice Admin (you): legal hold 42');
    expect(screen.getAllByTestId('lock-badge')).toHaveLength(1);
    expect(lifecycle.lists).toHaveLength(1);
    expect(lifecycle.lists[0]?.backupIds).toEqual(['bk-1', 'bk-2']);
  });

  it('an operator protects with a reason and sees who, when and why; unprotecting needs the admin role', async () => {
    const lifecycle = protections();
    const { app } = backupsServer({
      described: detail,
      lifecycle: lifecycle.service,
      roles: ['operator'],
    });
    renderApp(app, '/backups/bk-1');
    const panel = await screen.findByRole('region', { name: 'Protection' });
    expect(await within(panel).findByText(/Not protected/)).toBeTruthy();
    fireEvent.click(
      await waitFor(() => {
        const button = within(panel).getByRole('button', { name: 'Protect' }) as HTMLButtonElement;
        expect(button.disabled).toBe(false);
        return button;
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Protect this backup?' });
    const confirm = within(dialog).getByRole('button', { name: 'Protect' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/^Why/), {
      target: { value: '  legal hold 7 ' },
    });
    fireEvent.click(confirm);
    const facts = await within(panel).findByTestId('protection-facts');
    expect(facts.textContent).toContain('legal hold 7');
    expect(facts.textContent).toContain('Alice Admin');
    expect(facts.textContent).toContain('2026');
    expect(lifecycle.protects).toEqual([
      expect.objectContaining({ backupId: 'bk-1', reason: 'legal hold 7' }),
    ]);
    const unprotect = within(panel).getByRole('button', { name: 'Unprotect' }) as HTMLButtonElement;
    expect(unprotect.disabled).toBe(true);
    expect(
      within(panel).getByText('Needs the admin role (you are an operator in tenant acme).'),
    ).toBeTruthy();
  });

  it('a viewer is told Protect needs the operator role', async () => {
    const { app } = backupsServer({
      described: detail,
      lifecycle: protections().service,
      roles: ['viewer'],
    });
    renderApp(app, '/backups/bk-1');
    const panel = await screen.findByRole('region', { name: 'Protection' });
    expect(
      await within(panel).findByText('Needs the operator role (you are a viewer in tenant acme).'),
    ).toBeTruthy();
    expect(
      (within(panel).getByRole('button', { name: 'Protect' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('Delete is not offered on a protected backup: disabled, saying by whom and how to lift it', async () => {
    const { app, calls } = backupsServer({
      described: detail,
      lifecycle: protections({ 'bk-1': 'legal hold 42' }).service,
    });
    renderApp(app, '/backups/bk-1');
    const panel = await screen.findByRole('region', { name: 'Protection' });
    await within(panel).findByTestId('protection-facts');
    const remove = await waitFor(() => {
      const button = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      return button;
    });
    const reason = 'Protected by Alice Admin (you) — “legal hold 42”. Unprotect it to delete it.';
    expect(remove.title).toBe(reason);
    expect(screen.getByText(reason)).toBeTruthy();
    expect(remove.title).not.toContain('token:');
    fireEvent.click(remove);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.deletes).toEqual([]);
  });

  it('Delete stays offered on an unprotected backup once its protections are known', async () => {
    const { app } = backupsServer({ described: detail, lifecycle: protections().service });
    renderApp(app, '/backups/bk-1');
    await waitFor(() => {
      const button = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
    });
  });

  it('a protected dependant: cascade is not offered, and the dialog says which and by whom', async () => {
    const withDependant = create(backupV1.BackupChainResponseSchema, {
      found: true,
      manifest: manifest({ backupId: 'bk-1', name: 'nightly' }),
      chainBackupIds: ['bk-1'],
      dependantBackupIds: ['bk-inc'],
    });
    const { app } = backupsServer({
      described: withDependant,
      lifecycle: protections({ 'bk-inc': 'audit 2026' }).service,
    });
    renderApp(app, '/backups/bk-1');
    const remove = await waitFor(() => {
      const button = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      return button;
    });
    fireEvent.click(remove);
    const dialog = await screen.findByRole('dialog');
    const cascade = within(dialog).getByRole('checkbox', { name: /cascade/ }) as HTMLInputElement;
    await waitFor(() => expect(cascade.disabled).toBe(true));
    expect(within(dialog).getByTestId('cascade-protected').textContent).toMatch(
      /^Cascade is not possible: .+ is protected by Alice Admin \(you\) \(audit 2026\), and the backups it needs are kept with it\.$/,
    );
  });
});
