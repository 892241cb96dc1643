import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreOperationState,
  StoreSchemaApiOperation,
  StoreSchemaMode,
  TreeDataService,
  type StoreSchemaPolicy,
  type StoreSchemaPolicySchema,
} from '@store/contract';
import {
  SchemaInsightOperationKind,
  SchemaInsightService,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);
const NAMED = '{"required":["name"]}';
const TITLE = 'Enforce this policy on people?';

/** A tree of 300 entries; the dry run of any draft finds `failing` of them failing. */
function server(options: { stored?: StoreSchemaMode; failing?: bigint } = {}) {
  const failing = options.failing ?? 300n;
  let stored: MessageInitShape<typeof StoreSchemaPolicySchema> | undefined;
  const calls = {
    dryRuns: [] as string[],
    saved: [] as StoreSchemaPolicy[],
    remediated: [] as StoreSchemaPolicy[],
    transforms: [] as { op: string; path: string; valueJson?: string }[][],
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: ['admin'] }] }),
    });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () =>
        stored
          ? { found: true, policy: stored }
          : options.stored !== undefined
            ? { found: true, policy: { jsonSchema: NAMED, mode: options.stored, version: 1 } }
            : { found: false },
      setPolicy: (req) => {
        calls.saved.push(req.policy!);
        const { jsonSchema, mode, version, description } = req.policy!;
        stored = { jsonSchema, mode, version, description, updatedAt: { seconds: 9n } };
        return {};
      },
      startRemediation: (req) => {
        calls.remediated.push(req.targetPolicy!);
        calls.transforms.push(
          (req.transform?.ops ?? []).map(({ op, path, valueJson }) => ({ op, path, valueJson })),
        );
        return { operationId: 'rem-1' };
      },
      getSchemaOperationStatus: () => ({}),
      getVersionConfig: () => ({ found: false }),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => ({ operations: [] }),
      countDeadLetters: () => ({ count: 0 }),
      async *streamDeadLetters() {},
    });
    router.service(SchemaInsightService, {
      startPolicyDryRun: (req) => {
        calls.dryRuns.push(req.jsonSchema);
        return {
          operationId: `dry-${calls.dryRuns.length}`,
          kind: SchemaInsightOperationKind.POLICY_DRY_RUN,
        };
      },
      getSchemaInsightOperationStatus: (req) => ({
        found: true,
        status: {
          operationId: req.operationId,
          kind: SchemaInsightOperationKind.POLICY_DRY_RUN,
          state: StoreOperationState.SUCCEEDED,
          finishedAt: { seconds: 1n },
          result: {
            case: 'dryRun',
            value: {
              treeId: 'people',
              scanned: 300n,
              failing,
              groups:
                failing > 0n
                  ? [
                      {
                        keyword: 'required',
                        instancePath: '',
                        entryCount: failing,
                        exampleMessage: 'x',
                      },
                    ]
                  : [],
            },
          },
        },
      }),
      listDeadLetters: () => ({ deadLetters: [] }),
    });
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

async function openEditor() {
  const editor = within(await screen.findByRole('form', { name: 'Policy editor' }));
  const setButton = editor.getByRole('button', { name: 'Set policy' }) as HTMLButtonElement;
  await waitFor(() => expect(setButton.title).toBe(''));
  return { editor, setButton };
}

function typeSchema(editor: ReturnType<typeof within>, schema: string) {
  fireEvent.change(editor.getByLabelText('JSON Schema'), { target: { value: schema } });
}

function confirmDialog() {
  return within(screen.getByRole('dialog', { name: TITLE }));
}

describe('saving an Enforce policy repeats what the dry run said (issue 33)', () => {
  it('states the dry run of this draft in words, suggests Audit first, and saves Audit on request', async () => {
    const { app, calls } = server();
    renderApp(app, '/schema/people');
    const { editor, setButton } = await openEditor();
    typeSchema(editor, NAMED);
    fireEvent.click(editor.getByRole('button', { name: 'Dry run' }));
    await editor.findByTestId('dry-run-summary');

    fireEvent.click(setButton);
    const dialog = confirmDialog();
    await waitFor(() =>
      expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
        '300 of 300 existing entries would fail this schema; from now on a write that fails it is refused and sent to dead letters.',
      ),
    );
    expect(dialog.getByTestId('enforce-confirm').textContent).toContain('Consider Audit first');
    expect(dialog.queryByRole('button', { name: 'Run a dry run first' })).toBeNull();
    const audit = dialog.getByRole('button', { name: 'Save as Audit instead' });
    expect(audit.className).toContain('btn--primary');
    expect(dialog.getByRole('button', { name: 'Save as Enforce' }).className).toContain(
      'btn--danger',
    );
    expect(calls.saved).toEqual([]);

    fireEvent.click(audit);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());
    expect(calls.saved).toHaveLength(1);
    expect(calls.saved[0]).toMatchObject({ jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT });
  });

  it('saved as Enforce, the dry-run result stays on the page, current for the saved schema', async () => {
    const { app, calls } = server();
    renderApp(app, '/schema/people');
    const { editor, setButton } = await openEditor();
    typeSchema(editor, NAMED);
    fireEvent.click(editor.getByRole('button', { name: 'Dry run' }));
    await editor.findByTestId('dry-run-summary');
    setButton.focus();
    fireEvent.click(setButton);
    const dialog = confirmDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Save as Enforce' }));

    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0]).toMatchObject({ mode: StoreSchemaMode.ENFORCE });
    // The stored policy reloads (Version 1, Enforce) and the editor starts from it again …
    await screen.findByText('Enforce', { selector: '.badge' });
    expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull();
    // … and the dry run's result is still there, not marked as for an earlier draft.
    const summary = editor.getByTestId('dry-run-summary');
    expect(summary.textContent).toBe('300 of 300 entries would be refused; 300 × (root) required');
    // Focus is back on the button that opened the confirm.
    expect(document.activeElement).toBe(setButton);
  });

  it('without a dry run of this draft, says so and offers one; the next confirm has its numbers', async () => {
    const { app, calls } = server({ failing: 0n });
    renderApp(app, '/schema/people');
    const { editor, setButton } = await openEditor();
    // A dry run of an earlier draft is not one of this draft.
    typeSchema(editor, '{"required":["age"]}');
    fireEvent.click(editor.getByRole('button', { name: 'Dry run' }));
    await editor.findByTestId('dry-run-summary');
    typeSchema(editor, NAMED);

    setButton.focus();
    fireEvent.click(setButton);
    let dialog = confirmDialog();
    expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
      'No dry run of this draft has been run, so how many existing entries would fail it is not known. From now on a write that fails it is refused and sent to dead letters.',
    );
    expect(dialog.queryByRole('button', { name: 'Save as Audit instead' })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Run a dry run first' }));
    expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull();
    expect(document.activeElement).toBe(setButton);
    await waitFor(() => expect(calls.dryRuns).toEqual(['{"required":["age"]}', NAMED]));
    expect(calls.saved).toEqual([]);

    await waitFor(() =>
      expect(editor.getByTestId('dry-run-summary').textContent).not.toContain('earlier draft'),
    );
    fireEvent.click(setButton);
    dialog = confirmDialog();
    await waitFor(() =>
      expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
        'None of the 300 existing entries would fail this schema; from now on a write that fails it is refused and sent to dead letters.',
      ),
    );
    // Nothing would fail: no Audit suggestion, Enforce is the primary action.
    expect(dialog.queryByRole('button', { name: 'Save as Audit instead' })).toBeNull();
    expect(dialog.getByRole('button', { name: 'Save as Enforce' }).className).toContain(
      'btn--primary',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull();
    expect(document.activeElement).toBe(setButton);
    expect(calls.saved).toEqual([]);
  });

  it('switching a stored Audit policy to Enforce asks too; its automatic dry run is the one quoted', async () => {
    const { app, calls } = server({ stored: StoreSchemaMode.AUDIT, failing: 7n });
    renderApp(app, '/schema/people');
    const { editor, setButton } = await openEditor();
    fireEvent.click(editor.getByRole('radio', { name: /^Enforce/ }));
    await editor.findByTestId('dry-run-summary');
    fireEvent.click(setButton);
    const dialog = confirmDialog();
    await waitFor(() =>
      expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
        '7 of 300 existing entries would fail this schema',
      ),
    );
    expect(calls.dryRuns).toHaveLength(1);
    expect(dialog.getByRole('button', { name: 'Save as Audit instead' })).toBeTruthy();
  });

  it('does not ask for an Audit save, nor for a new version of the same Enforce schema', async () => {
    const { app, calls } = server({ stored: StoreSchemaMode.ENFORCE });
    renderApp(app, '/schema/people');
    const { editor, setButton } = await openEditor();
    fireEvent.change(editor.getByLabelText('Policy version'), { target: { value: '2' } });
    fireEvent.click(setButton);
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull();

    await waitFor(() =>
      expect((editor.getByLabelText('Policy version') as HTMLInputElement).value).toBe('2'),
    );
    typeSchema(editor, '{"required":["age"]}');
    fireEvent.click(editor.getByRole('radio', { name: /^Audit/ }));
    fireEvent.click(setButton);
    await waitFor(() => expect(calls.saved).toHaveLength(2));
    expect(calls.saved[1]).toMatchObject({ mode: StoreSchemaMode.AUDIT });
    expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull();
  });
});

describe('starting a remediation whose target would be enforced asks the same (issue 33)', () => {
  async function openRemediation() {
    const form = within(await screen.findByRole('form', { name: 'Remediation' }));
    const startButton = form.getByRole('button', {
      name: 'Start remediation',
    }) as HTMLButtonElement;
    await waitFor(() => expect(startButton.title).toBe(''));
    return { form, startButton };
  }
  const REMEDIATE_TITLE = 'Remediate people and enforce the target policy?';

  it('an Audit policy remediated to an Enforce target: no numbers without a dry run, then its numbers and Audit offered', async () => {
    const { app, calls } = server({ stored: StoreSchemaMode.AUDIT, failing: 2n });
    renderApp(app, '/schema/people');
    const { form, startButton } = await openRemediation();
    fireEvent.click(form.getByRole('radio', { name: /^Enforce/ }));
    fireEvent.change(form.getByLabelText('Target policy version'), { target: { value: '2' } });
    startButton.focus();
    fireEvent.click(startButton);

    let dialog = within(screen.getByRole('dialog', { name: REMEDIATE_TITLE }));
    expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
      'No dry run of this target schema has been run, so how many existing entries would fail it is not known. Once the run succeeds, a write that fails it is refused and sent to dead letters.',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Run a dry run first' }));
    expect(document.activeElement).toBe(startButton);
    await waitFor(() => expect(calls.dryRuns).toHaveLength(1));
    expect(JSON.parse(calls.dryRuns[0]!)).toEqual(JSON.parse(NAMED));
    // The dry run's result shows in the remediation form.
    await form.findByTestId('dry-run-summary');
    expect(calls.remediated).toEqual([]);

    fireEvent.click(startButton);
    dialog = within(screen.getByRole('dialog', { name: REMEDIATE_TITLE }));
    await waitFor(() =>
      expect(dialog.getByTestId('enforce-confirm').textContent).toContain(
        '2 of 300 existing entries fail the target schema now; each gets the transform and goes to dead letters if it still fails. Once the run succeeds, a write that fails the schema is refused and sent to dead letters.',
      ),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Start as Audit instead' }));
    await waitFor(() => expect(calls.remediated).toHaveLength(1));
    expect(calls.remediated[0]).toMatchObject({ mode: StoreSchemaMode.AUDIT, version: 2 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: REMEDIATE_TITLE })).toBeNull());
    expect((form.getByRole('radio', { name: /^Audit/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('keeping the same Enforce policy as the target starts at once, with the patch derived from the policy', async () => {
    const { app, calls } = server({ stored: StoreSchemaMode.ENFORCE });
    renderApp(app, '/schema/people');
    const { form, startButton } = await openRemediation();
    // The transform starts as a real patch for this policy (it requires "name"), not an example.
    expect(
      JSON.parse((form.getByLabelText('Transform (JSON Patch)') as HTMLTextAreaElement).value),
    ).toEqual([{ op: 'add', path: '/name', value: null }]);
    fireEvent.click(startButton);
    await waitFor(() => expect(calls.remediated).toHaveLength(1));
    expect(calls.transforms[0]).toEqual([{ op: 'add', path: '/name', valueJson: 'null' }]);
    expect(screen.queryByRole('dialog', { name: REMEDIATE_TITLE })).toBeNull();
  });
});
