import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreSchemaApiOperation,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
  TreeDataService,
} from '@store/contract';
import {
  SchemaInsightService,
  type DeadLetterSelection,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);

/**
 * A tree with `count` pending letters bad-00…; counts answer a fingerprint of the ids taken, and
 * a discard removes them only when both its count and fingerprint still hold, as the server does.
 */
function server(role: 'viewer' | 'operator', count: number) {
  let pending = Array.from({ length: count }, (_, i) => i + 1);
  let nextId = count + 1;
  const discards: { expected: bigint; fingerprint: string | undefined; case?: string }[] = [];
  const key = (id: number) => `bad-${String(id - 1).padStart(2, '0')}`;
  const taken = (selection: DeadLetterSelection | undefined) => {
    const chosen = selection?.selection;
    return chosen?.case === 'deadLetterId'
      ? pending.filter((id) => BigInt(id) === chosen.value)
      : pending;
  };
  const fingerprintOf = (ids: number[]) => ids.join(',');
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: [role] }] }),
    });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () => ({
        found: true,
        policy: { jsonSchema: '{}', mode: StoreSchemaMode.ENFORCE },
      }),
      getVersionConfig: () => ({ found: false }),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => ({ operations: [] }),
      countDeadLetters: () => ({ count: pending.length }),
    });
    router.service(SchemaInsightService, {
      listDeadLetters: (req) => {
        const after = Number(req.pageToken || 0);
        const prefix = req.filter?.keyPrefix ?? '';
        const taken = pending.filter((id) => id > after && key(id).startsWith(prefix));
        const page = taken.slice(0, req.pageSize);
        return {
          deadLetters: page.map((id) => ({
            deadLetterId: BigInt(id),
            entry: {
              key: key(id),
              valueJson: `{"n":${id}}`,
              reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
              errors: [`/n: must be string (${id})`],
            },
          })),
          nextPageToken: taken.length > page.length ? String(page.at(-1)) : '',
        };
      },
      countPendingDeadLetters: (req) => {
        const ids = taken(req.selection);
        return { count: BigInt(ids.length), fingerprint: fingerprintOf(ids) };
      },
      discardDeadLetters: (req) => {
        discards.push({
          expected: req.expectedCount,
          fingerprint: req.expectedFingerprint,
          case: req.selection?.selection.case,
        });
        const ids = taken(req.selection);
        if (
          BigInt(ids.length) !== req.expectedCount ||
          fingerprintOf(ids) !== req.expectedFingerprint
        ) {
          throw new ConnectError('the selection now takes other letters', Code.FailedPrecondition);
        }
        pending = pending.filter((id) => !ids.includes(id));
        return { discardedCount: BigInt(ids.length) };
      },
    });
  };
  return {
    discards,
    /** A letter written after the page was counted. */
    arrive: () => pending.push(nextId++),
    /** The oldest pending letter resolved (replayed by someone else). */
    resolveOldest: () => (pending = pending.slice(1)),
    app: createTestApp(routes, { session: testSession }),
  };
}

const section = async () => within(await screen.findByRole('region', { name: 'Dead letters' }));
const replaySection = () => within(screen.getByRole('region', { name: 'Fix and replay' }));

describe('dead letters section', () => {
  it('both dead-letter sections show one table: the same columns, the same pager', async () => {
    const { app } = server('operator', 45);
    renderApp(app, '/schema/orders');
    const pending = await (await section()).findByRole('table', { name: 'Dead letters 1–20' });
    const toFix = await replaySection().findByRole('table', { name: 'Dead letters to fix 1–20' });
    const headers = (table: HTMLElement) =>
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent);
    expect(headers(pending)).toEqual([
      'Key',
      'Reason',
      'First error',
      'Version',
      'Set aside',
      'Actions',
    ]);
    // Fix and replay lists replayed letters too: their replay where a pending one has its error.
    expect(headers(toFix)).toEqual(['Key', 'Reason', 'Replay', 'Version', 'Set aside', 'Actions']);
    for (const region of [await section(), replaySection()]) {
      expect(region.getByRole('button', { name: 'Previous page' })).toBeTruthy();
      expect(region.getByRole('button', { name: 'Next page' })).toBeTruthy();
    }
  });

  it('pages the pending letters 20 at a time and shows one in detail', async () => {
    const { app } = server('viewer', 45);
    renderApp(app, '/schema/orders');
    const letters = await section();
    const table = await letters.findByRole('table', { name: 'Dead letters 1–20' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    fireEvent.click(letters.getByRole('button', { name: 'Next page' }));
    const second = await letters.findByRole('table', { name: 'Dead letters 21–40' });
    await within(second).findByRole('cell', { name: 'bad-20' });
    await waitFor(() =>
      expect(
        (letters.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    fireEvent.click(letters.getByRole('button', { name: 'Next page' }));
    const last = await letters.findByRole('table', { name: 'Dead letters 41–45' });
    await waitFor(() =>
      expect(
        (letters.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );
    fireEvent.click(within(last).getByRole('button', { name: 'View dead letter bad-44' }));
    const dialog = screen.getByRole('dialog', { name: 'Dead letter bad-44' });
    expect(within(dialog).getByText('/n: must be string (45)')).toBeTruthy();
  });

  it('discards one letter, then all, each after a confirm naming the count; both sections agree', async () => {
    const { app, discards } = server('operator', 3);
    renderApp(app, '/schema/orders');
    const letters = await section();
    const discardOne = await letters.findByRole('button', { name: 'Discard dead letter bad-01' });
    await waitFor(() => expect((discardOne as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(discardOne);
    const one = within(screen.getByRole('dialog', { name: 'Discard the dead letter of bad-01?' }));
    // The confirm counts the letter first: its count and fingerprint are what the discard sends.
    const confirmOne = await one.findByRole('button', { name: 'Discard 1 dead letter' });
    await waitFor(() => expect((confirmOne as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirmOne);
    await waitFor(() => expect(letters.getByTestId('dead-letter-count').textContent).toBe('2'));
    expect(replaySection().getByTestId('replay-pending-count').textContent).toBe('2');

    fireEvent.click(letters.getByRole('button', { name: 'Discard all (2)' }));
    const all = within(await screen.findByRole('dialog', { name: 'Discard all 2 dead letters?' }));
    expect(all.getByText(/tree/).textContent).toContain(
      'All 2 pending dead letters of tree orders',
    );
    const confirmAll = all.getByRole('button', { name: 'Discard 2 dead letters' });
    await waitFor(() => expect((confirmAll as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirmAll);
    await waitFor(() => expect(letters.getByTestId('dead-letter-count').textContent).toBe('0'));
    expect(replaySection().getByTestId('replay-pending-count').textContent).toBe('0');
    expect(letters.getByText('No dead letters')).toBeTruthy();
    expect(discards).toEqual([
      { expected: 1n, fingerprint: '2', case: 'deadLetterId' },
      { expected: 2n, fingerprint: '1,3', case: 'all' },
    ]);
  });

  it('when letters arrive after the count, the discard is refused and the confirm shows the new count', async () => {
    const { app, arrive, discards } = server('operator', 2);
    renderApp(app, '/schema/orders');
    const letters = await section();
    const all = await letters.findByRole('button', { name: 'Discard all (2)' });
    await waitFor(() => expect((all as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(all);
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Discard all 2 dead letters?' }),
    );
    const confirm = await dialog.findByRole('button', { name: 'Discard 2 dead letters' });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    arrive();
    fireEvent.click(confirm);
    expect(await dialog.findByText(/changed since they were counted/)).toBeTruthy();
    const again = await screen.findByRole('button', { name: 'Discard 3 dead letters' });
    await waitFor(() => expect((again as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(again);
    await waitFor(() => expect(letters.getByTestId('dead-letter-count').textContent).toBe('0'));
    expect(discards.map((d) => d.expected)).toEqual([2n, 3n]);
  });

  it('one letter arriving and another resolved after the count keep it at 2, yet the discard is refused until confirmed again', async () => {
    const { app, arrive, resolveOldest, discards } = server('operator', 2);
    renderApp(app, '/schema/orders');
    const letters = await section();
    const all = await letters.findByRole('button', { name: 'Discard all (2)' });
    await waitFor(() => expect((all as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(all);
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Discard all 2 dead letters?' }),
    );
    const confirm = await dialog.findByRole('button', { name: 'Discard 2 dead letters' });
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    arrive();
    resolveOldest();
    fireEvent.click(confirm);
    expect(await dialog.findByText(/changed since they were counted/)).toBeTruthy();
    expect(letters.getByTestId('dead-letter-count').textContent).toBe('2');
    const again = dialog.getByRole('button', { name: 'Discard 2 dead letters' });
    // The new count's fingerprint is what the next confirm sends.
    await waitFor(() => expect((again as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(again);
    await waitFor(() => expect(letters.getByTestId('dead-letter-count').textContent).toBe('0'));
    expect(discards).toEqual([
      { expected: 2n, fingerprint: '1,2', case: 'all' },
      { expected: 2n, fingerprint: '2,3', case: 'all' },
    ]);
  });

  it('a viewer sees the letters but discard is disabled, with the reason', async () => {
    const { app } = server('viewer', 1);
    renderApp(app, '/schema/orders');
    const letters = await section();
    const row = (await letters.findByRole('button', {
      name: 'Discard dead letter bad-00',
    })) as HTMLButtonElement;
    await waitFor(() =>
      expect(row.title).toBe('Needs the operator role (you are a viewer in tenant acme).'),
    );
    expect(row.disabled).toBe(true);
    expect(
      (letters.getByRole('button', { name: 'Discard all (1)' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});
