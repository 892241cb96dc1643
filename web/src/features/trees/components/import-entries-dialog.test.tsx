import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
  type PutEntriesRequest,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

function server() {
  const calls: PutEntriesRequest[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(BackupControlService, { listBackupOperations: () => ({}) });
    router.service(SchemaControlService, { listSchemaOperations: () => ({}) });
    router.service(TreeDataService, {
      listTrees: () => ({}),
      putEntries: (req) => {
        calls.push(req);
        return {
          results: req.entries.map((entry, i) =>
            entry.key === 'refused-by-policy'
              ? { sequence: 0n, deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' }
              : { sequence: BigInt(i + 1), deadLettered: false },
          ),
        };
      },
    });
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

/** Clicks "Import JSON Lines" once WhoAmI has answered (until then it is disabled). */
async function openDialog() {
  // GuardedButton renders a new element once allowed: look it up again each time.
  const enabled = () =>
    screen.getByRole('button', { name: 'Import JSON Lines' }) as HTMLButtonElement;
  await waitFor(() => expect(enabled().disabled).toBe(false));
  fireEvent.click(enabled());
  return screen.findByRole('dialog');
}

describe('import entries dialog', () => {
  it('asks for a valid tree name and a file before starting', async () => {
    const { app, calls } = server();
    renderApp(app, '/trees');
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Tree'), { target: { value: 'bad/name' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start import' }));
    expect(within(dialog).getByText(/Tree names are 1–128 letters/)).toBeTruthy();
    expect(within(dialog).getByText('Choose a .jsonl file or an exported artifact')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('a pasted 175-character tree name is kept whole and refused with the limit, not cut into another tree', async () => {
    const { app, calls } = server();
    renderApp(app, '/trees');
    const dialog = await openDialog();
    const tree = within(dialog).getByLabelText('Tree') as HTMLInputElement;
    fireEvent.change(tree, { target: { value: 't'.repeat(175) } });
    expect(tree.value).toHaveLength(175);
    expect(tree.maxLength).toBe(-1);
    const file = new File(['{"key":"a","value":1}'], 'entries.jsonl');
    fireEvent.change(within(dialog).getByLabelText('JSON Lines file'), {
      target: { files: [file] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start import' }));
    expect(
      within(dialog).getByText(
        'A tree name holds at most 128 characters; this one has 175 (nothing was cut)',
      ),
    ).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the file’s entries with PutEntries and reports written, dead-lettered and refused lines', async () => {
    const { app, calls } = server();
    renderApp(app, '/trees');
    const dialog = await openDialog();
    const text = [
      '{"key":"a","value":{"n":1}}',
      'oops',
      '{"key":"refused-by-policy","value":1}',
      '{"key":"b","value":[1,2]}',
    ].join('\n');
    const file = new File([text], 'entries.jsonl', { type: 'application/x-ndjson' });
    fireEvent.change(within(dialog).getByLabelText('Tree'), { target: { value: 'orders' } });
    fireEvent.change(within(dialog).getByLabelText('JSON Lines file'), {
      target: { files: [file] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start import' }));
    const report = await within(dialog).findByTestId('import-report');
    expect(within(report).getByTestId('import-written').textContent).toBe('2');
    expect(within(report).getByTestId('import-dead-lettered').textContent).toBe('1');
    expect(within(report).getByTestId('import-refused').textContent).toBe('1');
    expect(within(report).getByRole('table', { name: 'Refused lines' }).textContent).toMatch(
      /2not JSON/,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.treeId).toBe('orders');
    expect(calls[0]?.entries.map((e) => [e.key, e.valueJson])).toEqual([
      ['a', '{"n":1}'],
      ['refused-by-policy', '1'],
      ['b', '[1,2]'],
    ]);
  });
});
