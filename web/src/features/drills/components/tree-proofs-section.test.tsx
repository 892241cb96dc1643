import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { DrillProofService, RestoreDrillOutcome, type TreeProofSchema } from '@store/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

/** The health page (where the section lives) with these trees' proofs; the section's region. */
async function renderProofs(trees: MessageInitShape<typeof TreeProofSchema>[]) {
  const app = createTestApp(
    (router) => router.service(DrillProofService, { listTreeProofs: () => ({ trees }) }),
    { session: testSession },
  );
  renderApp(app, '/health');
  return within(await screen.findByRole('region', { name: 'Proven restorable, per tree' }));
}

const proven = {
  operationId: 'op-1',
  backupId: 'bk-1',
  outcome: RestoreDrillOutcome.PROVEN,
  entries: 3n,
  finishedAt: timestampFromMs(Date.now() - 60_000),
};

describe('proven restorable, per tree (fleet health)', () => {
  it('says nothing about every tree when there are no trees: the empty table speaks', async () => {
    const section = await renderProofs([]);
    expect(await section.findByText('No trees yet')).toBeTruthy();
    expect(section.queryByText(/Every tree has a backup/)).toBeNull();
  });

  it('counts the trees never proven', async () => {
    const section = await renderProofs([
      { treeId: 'ledger', lastProven: proven },
      { treeId: 'orphan' },
    ]);
    expect(
      await section.findByText("1 tree never proven restorable: run a drill from a backup's page."),
    ).toBeTruthy();
  });

  it('says every tree is proven when each has a proof', async () => {
    renderProofs([{ treeId: 'ledger', lastProven: proven }]);
    expect(
      await screen.findByText('Every tree has a backup a drill proved restorable.'),
    ).toBeTruthy();
  });
});
