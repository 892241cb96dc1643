import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreSchemaApiOperation,
  TreeDataService,
  type StoreSchemaVersionConfig,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);

function server() {
  const sent = { configs: [] as StoreSchemaVersionConfig[], advanced: [] as number[] };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () => ({ found: false }),
      getVersionConfig: () => ({
        found: true,
        config: {
          currentVersion: 1,
          targetVersion: 2,
          migrations: [
            {
              fromVersion: 1,
              toVersion: 2,
              transform: { ops: [{ op: 'add', path: '/v', valueJson: '2' }] },
            },
          ],
        },
      }),
      setVersionConfig: (req) => {
        sent.configs.push(req.config!);
        return {};
      },
      advanceTargetVersion: (req) => {
        sent.advanced.push(req.newTargetVersion);
        throw new ConnectError(
          'target version 0 is below the current version 1',
          Code.FailedPrecondition,
        );
      },
      startAdvanceAndMigrate: () => {
        throw new ConnectError(
          'no migration step from version 2 (migrating 1→5)',
          Code.FailedPrecondition,
        );
      },
      startMigration: () => ({ operationId: 'op-m', kind: StoreOperationKind.MIGRATION }),
      getSchemaOperationStatus: () => ({
        status: operation({ operationId: 'op-m', kind: StoreOperationKind.MIGRATION }),
      }),
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => create(StoreOperationPageSchema, {}),
      countDeadLetters: () => ({ count: 0 }),
      async *streamDeadLetters() {},
    });
  };
  return { sent, app: createTestApp(routes, { session: testSession }) };
}

async function versions() {
  return within(await screen.findByRole('region', { name: 'Versions and migrations' }));
}

describe('versions and migrations', () => {
  it('lists the stored steps and edits them, with patch syntax checked as typed', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    expect(await section.findByText('add /v 2')).toBeTruthy();
    const form = within(section.getByRole('form', { name: 'Version config editor' }));
    expect((form.getByLabelText('Step 1 JSON Patch') as HTMLTextAreaElement).value).toContain(
      '"op": "add"',
    );

    fireEvent.click(form.getByRole('button', { name: 'Add step' }));
    expect((form.getByLabelText('Step 2 from version') as HTMLInputElement).value).toBe('2');
    expect((form.getByLabelText('Step 2 to version') as HTMLInputElement).value).toBe('3');
    const patch = form.getByLabelText('Step 2 JSON Patch');
    fireEvent.change(patch, { target: { value: '[{"op": "remove" "path": "/v"}]' } });
    expect(form.getByText("Line 1, column 18: expected ',' or '}', found '\"'")).toBeTruthy();
    fireEvent.click(form.getByRole('button', { name: 'Save version config' }));
    expect(sent.configs).toHaveLength(0);

    fireEvent.change(patch, { target: { value: '[{"op": "remove", "path": "/v"}]' } });
    fireEvent.change(form.getByLabelText('Target version'), { target: { value: '3' } });
    fireEvent.click(form.getByRole('button', { name: 'Save version config' }));
    await waitFor(() => expect(sent.configs).toHaveLength(1));
    expect(sent.configs[0]).toMatchObject({
      currentVersion: 1,
      targetVersion: 3,
      migrations: [
        { fromVersion: 1, toVersion: 2 },
        { fromVersion: 2, toVersion: 3, transform: { ops: [{ op: 'remove', path: '/v' }] } },
      ],
    });
  });

  it('shows the server’s refusals of advance and advance-and-migrate', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    await section.findByText('add /v 2');
    fireEvent.change(section.getByLabelText('New target version'), { target: { value: '0' } });
    fireEvent.click(section.getByRole('button', { name: 'Advance target' }));
    expect((await section.findByRole('alert')).textContent).toBe(
      'Refused: FailedPrecondition: target version 0 is below the current version 1',
    );
    expect(sent.advanced).toEqual([0]);
    fireEvent.change(section.getByLabelText('New target version'), { target: { value: '5' } });
    fireEvent.click(section.getByRole('button', { name: 'Advance and migrate' }));
    expect((await section.findByRole('alert')).textContent).toContain(
      'no migration step from version 2',
    );
  });

  it('follows a started migration live and puts it in the tray', async () => {
    const { app } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    fireEvent.click(await section.findByRole('button', { name: 'Start migration to version 2' }));
    expect(await section.findByRole('link', { name: 'op-m' })).toBeTruthy();
    expect(section.getByRole('progressbar', { name: 'Migration progress' })).toBeTruthy();
    expect(app.services.tracked.getSnapshot().map((t) => t.operationId)).toContain('op-m');
  });
});
