import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreOperationPageSchema,
  StoreSchemaApiOperation,
  StoreSchemaMode,
  TreeDataService,
  type StoreSchemaPolicy,
} from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const ALL_OPERATIONS = Object.values(StoreSchemaApiOperation).filter(
  (v): v is StoreSchemaApiOperation => typeof v === 'number',
);

function server(options: { deadLetters?: number; allowed?: StoreSchemaApiOperation[] } = {}) {
  const sent: { policies: StoreSchemaPolicy[]; cleared: string[] } = { policies: [], cleared: [] };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI(),
      resolveSubjects: ({ subjects }) => ({
        subjects: subjects.map((subject) => ({
          subject,
          displayName: subject === 'token:t-9' ? 'release pipeline' : subject,
          kind: 'token',
          named: subject === 'token:t-9',
        })),
      }),
    });
    router.service(TreeDataService, {
      listTrees: () => ({ trees: [{ treeId: 'orders', entryCount: 3n, hasPolicy: true }] }),
    });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({
        treeId: req.treeId,
        allowedOperations: options.allowed ?? ALL_OPERATIONS,
      }),
      getPolicy: () => ({
        found: true,
        policy: {
          jsonSchema: '{"type":"object"}',
          mode: StoreSchemaMode.ENFORCE,
          version: 1,
          updatedBy: 'token:t-9',
        },
      }),
      setPolicy: (req) => {
        if (req.policy?.jsonSchema.includes('"minimum": "x"')) {
          throw new ConnectError('policy.json_schema: schema is invalid', Code.InvalidArgument);
        }
        sent.policies.push(req.policy!);
        return {};
      },
      clearPolicy: (req) => {
        sent.cleared.push(req.treeId);
        return { removed: true };
      },
      getVersionConfig: () => ({ found: false }),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => create(StoreOperationPageSchema, {}),
      countDeadLetters: () => ({ count: options.deadLetters ?? 0 }),
    });
  };
  return { sent, app: createTestApp(routes, { session: testSession }) };
}

function policyEditor() {
  return within(screen.getByRole('form', { name: 'Policy editor' }));
}

/** Guarded buttons are disabled until the capability probe answers. */
async function waitUntilAllowed(name: string) {
  await waitFor(() =>
    expect((policyEditor().getByRole('button', { name }) as HTMLButtonElement).title).toBe(''),
  );
}

describe('schema page', () => {
  it('shows a JSON syntax error with its position and does not send', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    const editor = await screen.findByRole('form', { name: 'Policy editor' });
    const text = within(editor).getByLabelText('JSON Schema');
    fireEvent.change(text, { target: { value: '{\n  "type": "object",\n}' } });
    expect(
      within(editor).getByText(
        "Line 3, column 1: expected a property name in double quotes, found '}'",
      ),
    ).toBeTruthy();
    expect(text.getAttribute('aria-invalid')).toBe('true');
    const set = policyEditor().getByRole('button', { name: 'Set policy' }) as HTMLButtonElement;
    expect(set.disabled).toBe(true);
    fireEvent.submit(editor);
    expect(sent.policies).toHaveLength(0);
  });

  it('sends a valid policy with its mode, and shows the server’s compile error', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    await screen.findByRole('form', { name: 'Policy editor' });
    const text = policyEditor().getByLabelText('JSON Schema');
    fireEvent.change(text, {
      target: { value: '{"type":"object","properties":{"n":{"minimum": "x"}}}' },
    });
    await waitUntilAllowed('Set policy');
    fireEvent.click(policyEditor().getByRole('button', { name: 'Set policy' }));
    // Another schema under Enforce asks first (issue 33); nothing is sent before the answer.
    const confirm = within(screen.getByRole('dialog', { name: 'Enforce this policy on orders?' }));
    expect(sent.policies).toHaveLength(0);
    fireEvent.click(confirm.getByRole('button', { name: 'Save as Enforce' }));
    const refusal = await policyEditor().findByRole('alert');
    expect(refusal.textContent).toContain(
      'The server refused the policy: The server refused a value in the request: policy.json_schema: schema is invalid.',
    );
    expect(refusal.textContent).toContain('InvalidArgument: policy.json_schema: schema is invalid');

    fireEvent.change(text, { target: { value: '{"required":["n"]}' } });
    fireEvent.click(policyEditor().getByLabelText(/^Audit/));
    fireEvent.change(policyEditor().getByLabelText('Policy version'), { target: { value: '2' } });
    fireEvent.click(policyEditor().getByRole('button', { name: 'Set policy' }));
    await waitFor(() => expect(sent.policies).toHaveLength(1));
    expect(sent.policies[0]).toMatchObject({
      jsonSchema: '{"required":["n"]}',
      mode: StoreSchemaMode.AUDIT,
      version: 2,
    });
  });

  it('names who last set the policy, the recorded subject below', async () => {
    const { app } = server();
    renderApp(app, '/schema/orders');
    const by = await screen.findByText(/^release pipeline/, { selector: '.subject-name' });
    expect(by.textContent).toBe('release pipelinetoken:t-9');
  });

  it('clears the policy only after a confirmation naming tenant and tree', async () => {
    const { app, sent } = server();
    renderApp(app, '/schema/orders');
    await screen.findByRole('form', { name: 'Policy editor' });
    await waitUntilAllowed('Clear policy');
    fireEvent.click(policyEditor().getByRole('button', { name: 'Clear policy' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear the policy?' });
    expect(dialog.textContent).toContain('tree orders in tenant acme');
    expect(sent.cleared).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear policy' }));
    await waitFor(() => expect(sent.cleared).toEqual(['orders']));
  });

  it('disables what the capability probe does not allow, with the reason', async () => {
    const { app } = server({ allowed: [StoreSchemaApiOperation.GET_POLICY] });
    renderApp(app, '/schema/orders');
    await screen.findByRole('form', { name: 'Policy editor' });
    await waitFor(() =>
      expect(
        (policyEditor().getByRole('button', { name: 'Set policy' }) as HTMLButtonElement).title,
      ).toBe('Your role in tenant acme does not allow this'),
    );
  });
});
