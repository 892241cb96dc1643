import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  StoreSchemaApiOperation,
  TreeDataService,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);

const running = operation({
  operationId: 'scan-new',
  kind: StoreOperationKind.COMPLIANCE_SCAN,
  targetId: 'orders',
});
const finished = operation({
  operationId: 'scan-old',
  kind: StoreOperationKind.COMPLIANCE_SCAN,
  state: StoreOperationState.SUCCEEDED,
  targetId: 'orders',
  result: {
    case: 'complianceReport',
    value: {
      treeId: 'orders',
      policyVersion: 4,
      scanned: 3n,
      compliant: 1n,
      nonCompliant: 2n,
      violations: [
        { key: 'order/7', path: '/total', message: 'must be number' },
        { key: 'order/9', path: '', message: "must have required property 'status'" },
      ],
    },
  },
});

function server() {
  const calls = { listed: [] as (string | undefined)[], cancelled: [] as string[] };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () => ({ found: false }),
      getVersionConfig: () => ({ found: false }),
      getRemediationStatus: () => ({}),
      listComplianceScans: (req) => {
        calls.listed.push(req.targetId);
        return create(StoreOperationPageSchema, { operations: [running, finished] });
      },
      cancelComplianceScan: (req) => {
        calls.cancelled.push(req.operationId);
        return { status: { ...running, cancelRequested: true } };
      },
      countDeadLetters: () => ({ count: 0 }),
      async *streamDeadLetters() {},
    });
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

describe('compliance scans', () => {
  it("lists the tree's scans, and shows a report's violations linked to their entries", async () => {
    const { app, calls } = server();
    const { router } = renderApp(app, '/schema/orders');
    const section = within(await screen.findByRole('region', { name: 'Compliance scans' }));
    fireEvent.click(await section.findByRole('button', { name: 'Show scan scan-old' }));
    const report = section.getByRole('group', { name: 'Compliance report' });
    expect(within(report).getByText('2 non-compliant')).toBeTruthy();
    expect(within(report).getByRole('link', { name: 'order/7' }).getAttribute('href')).toBe(
      '/trees/orders?prefix=order%2F7',
    );
    expect(within(report).getByText('(whole value)')).toBeTruthy();
    expect(router.state.location.search).toBe('?scan=scan-old');
    expect(calls.listed[0]).toBe('orders');
  });

  it('cancels a running scan after a confirmation naming tenant and tree', async () => {
    const { app, calls } = server();
    renderApp(app, '/schema/orders');
    const section = within(await screen.findByRole('region', { name: 'Compliance scans' }));
    // Enabled once the capability probe has answered (GuardedButton renders a new element).
    const cancel = () => section.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;
    await waitFor(() => expect(cancel().disabled).toBe(false));
    fireEvent.click(cancel());
    const dialog = screen.getByRole('dialog', { name: 'Cancel this compliance scan?' });
    expect(dialog.textContent).toContain('Cancel scan scan-new of tree orders in tenant acme?');
    expect(calls.cancelled).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel scan' }));
    await waitFor(() => expect(calls.cancelled).toEqual(['scan-new']));
  });
});
