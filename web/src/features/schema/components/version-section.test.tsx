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
import {
  SchemaInsightOperationKind,
  SchemaInsightService,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { StoreOperationState } from '@store/contract';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);

/** A tree "orders" with a stored version config (1 → 2), or none with `{ config: null }`. */
function server(options: { config?: null } = {}) {
  const sent = {
    configs: [] as StoreSchemaVersionConfig[],
    advanced: [] as number[],
    previews: [] as (number | undefined)[],
    migrations: 0,
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () => ({ found: false }),
      getVersionConfig: () =>
        options.config === null
          ? { found: false }
          : {
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
            },
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
      startMigration: () => {
        sent.migrations += 1;
        return { operationId: 'op-m', kind: StoreOperationKind.MIGRATION };
      },
      getSchemaOperationStatus: () => ({
        status: operation({ operationId: 'op-m', kind: StoreOperationKind.MIGRATION }),
      }),
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => create(StoreOperationPageSchema, {}),
      countDeadLetters: () => ({ count: 0 }),
      async *streamDeadLetters() {},
    });
    router.service(SchemaInsightService, {
      // The preview makes StartAdvanceAndMigrate's checks: the same gap refuses it.
      startMigrationPreview: (req) => {
        sent.previews.push(req.newTargetVersion);
        if (req.newTargetVersion === 5) {
          throw new ConnectError(
            'no migration step from version 2 (migrating 1→5)',
            Code.FailedPrecondition,
          );
        }
        return { operationId: 'prev-1', kind: SchemaInsightOperationKind.MIGRATION_PREVIEW };
      },
      getSchemaInsightOperationStatus: () => ({
        found: true,
        status: {
          operationId: 'prev-1',
          kind: SchemaInsightOperationKind.MIGRATION_PREVIEW,
          state: StoreOperationState.SUCCEEDED,
          finishedAt: timestampFromMs(Date.UTC(2025, 0, 1)),
          result: {
            case: 'migrationPreview',
            value: {
              treeId: 'orders',
              fromVersion: 1,
              toVersion: 2,
              scanned: 4n,
              wouldChange: 3n,
              unchanged: 0n,
              wouldDeadLetter: 1n,
              steps: [
                {
                  fromVersion: 1,
                  toVersion: 2,
                  entered: 4n,
                  changed: 3n,
                  failed: 1n,
                  samples: [{ key: 'o1', beforeJson: '{"a":1}', afterJson: '{"a":1,"v":2}' }],
                },
              ],
              failures: [{ key: 'o4', message: 'migration step 1→2: /v: not an object' }],
            },
          },
        },
      }),
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

  it('without a version config the form starts at version 0, the version the entries are at', async () => {
    const { app, sent } = server({ config: null });
    renderApp(app, '/schema/orders');
    const section = await versions();
    expect(
      await section.findByText('No version config: entries are written at version 0.'),
    ).toBeTruthy();
    const form = within(section.getByRole('form', { name: 'Version config editor' }));
    expect((form.getByLabelText('Current version') as HTMLInputElement).value).toBe('0');
    expect((form.getByLabelText('Target version') as HTMLInputElement).value).toBe('0');
    fireEvent.click(form.getByRole('button', { name: 'Add step' }));
    expect((form.getByLabelText('Step 1 from version') as HTMLInputElement).value).toBe('0');
    expect((form.getByLabelText('Step 1 to version') as HTMLInputElement).value).toBe('1');
    fireEvent.change(form.getByLabelText('Target version'), { target: { value: '1' } });
    fireEvent.click(form.getByRole('button', { name: 'Save version config' }));
    await waitFor(() => expect(sent.configs).toHaveLength(1));
    expect(sent.configs[0]).toMatchObject({
      currentVersion: 0,
      targetVersion: 1,
      migrations: [{ fromVersion: 0, toVersion: 1 }],
    });
  });

  it('shows the server’s refusals of advance and advance-and-migrate', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    await section.findByText('add /v 2');
    fireEvent.change(section.getByLabelText('New target version'), { target: { value: '0' } });
    fireEvent.click(section.getByRole('button', { name: 'Advance target' }));
    expect((await section.findByRole('alert')).textContent).toContain(
      'Refused: This cannot be done in the current state: target version 0 is below the current version 1.',
    );
    expect(sent.advanced).toEqual([0]);
    fireEvent.change(section.getByLabelText('New target version'), { target: { value: '5' } });
    fireEvent.click(section.getByRole('button', { name: 'Advance and migrate' }));
    // The preview is refused up front, as the run would be; nothing can be confirmed.
    const dialog = within(
      await screen.findByRole('dialog', { name: /Advance orders to version 5/ }),
    );
    expect((await dialog.findByRole('alert')).textContent).toContain(
      'no migration step from version 2',
    );
    expect(sent.previews).toEqual([5]);
    expect(dialog.getByRole('button', { name: 'Migrate' })).toHaveProperty('disabled', true);
  });

  it('previews a migration before running it, and runs it only on confirm', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    fireEvent.click(await section.findByRole('button', { name: 'Start migration to version 2' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Migrate orders to version 2' }),
    );
    expect((await dialog.findByTestId('migration-preview-summary')).textContent).toBe(
      'Of 4 entries read: 3 entries would be migrated to version 2, 0 already there, 1 would be dead-lettered.',
    );
    expect(dialog.getByLabelText('Value before and after').textContent).toContain('"v": 2');
    expect(dialog.getByTestId('migration-preview-failures').textContent).toContain('o4');
    expect(sent.previews).toEqual([undefined]);
    expect(sent.migrations).toBe(0);
    fireEvent.click(dialog.getByRole('button', { name: 'Migrate 3 entries and dead-letter 1' }));
    await waitFor(() => expect(sent.migrations).toBe(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('follows a started migration live and puts it in the tray', async () => {
    const { app } = server();
    renderApp(app, '/schema/orders');
    const section = await versions();
    fireEvent.click(await section.findByRole('button', { name: 'Start migration to version 2' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(await dialog.findByRole('button', { name: /^Migrate 3 entries/ }));
    expect(await section.findByRole('link', { name: 'op-m' })).toBeTruthy();
    expect(section.getByRole('progressbar', { name: 'Migration progress' })).toBeTruthy();
    expect(app.services.tracked.getSnapshot().map((t) => t.operationId)).toContain('op-m');
  });
});
