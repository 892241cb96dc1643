import type { ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  SchemaControlService,
  StoreOperationState,
  StoreSchemaApiOperation,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
  TreeDataService,
} from '@store/contract';
import {
  DeadLetterReplayOutcome,
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
const POLICY = { jsonSchema: '{"required":["name"]}', mode: StoreSchemaMode.ENFORCE, version: 3 };

function server(role: 'viewer' | 'operator', mode = StoreSchemaMode.ENFORCE) {
  const calls = {
    dryRuns: [] as string[],
    validated: [] as string[],
    replayed: [] as { id: bigint; value: string | undefined }[],
  };
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: [role] }] }),
    });
    router.service(TreeDataService, { listTrees: () => ({ trees: [] }) });
    router.service(SchemaControlService, {
      probeCapabilities: (req) => ({ treeId: req.treeId, allowedOperations: ALL_OPERATIONS }),
      getPolicy: () => ({ found: true, policy: { ...POLICY, mode } }),
      getVersionConfig: () => ({ found: false }),
      getRemediationStatus: () => ({}),
      listComplianceScans: () => ({ operations: [] }),
      countDeadLetters: () => ({ count: 1 }),
      async *streamDeadLetters() {},
    });
    router.service(SchemaInsightService, {
      startPolicyDryRun: (req) => {
        calls.dryRuns.push(req.jsonSchema);
        return { operationId: 'dry-1', kind: SchemaInsightOperationKind.POLICY_DRY_RUN };
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
              scanned: 40_000n,
              failing: 12n,
              groups: [
                { keyword: 'format', instancePath: '/email', entryCount: 11n, exampleMessage: 'x' },
                { keyword: 'minimum', instancePath: '/age', entryCount: 1n, exampleMessage: 'y' },
              ],
              samples: [{ key: 'p/1', reasons: ['/age: must be >= 0'] }],
            },
          },
        },
      }),
      listDeadLetters: () => ({
        deadLetters: [
          {
            deadLetterId: 7n,
            entry: {
              key: 'p/9',
              valueJson: '{"age":1}',
              reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
              errors: ["(root): must have required property 'name'"],
            },
          },
        ],
      }),
      validateValue: (req) => {
        calls.validated.push(req.valueJson);
        const ok = (JSON.parse(req.valueJson) as { name?: string }).name !== undefined;
        return {
          hasPolicy: true,
          policy: POLICY,
          accepted: ok,
          violations: ok
            ? []
            : [
                {
                  instancePath: '',
                  keyword: 'required',
                  message: "must have required property 'name'",
                },
              ],
        };
      },
      replayDeadLetter: (req) => {
        calls.replayed.push({ id: req.deadLetterId, value: req.valueJson });
        return {
          deadLetter: {
            deadLetterId: req.deadLetterId,
            replayOutcome: DeadLetterReplayOutcome.WRITTEN,
            replaySequence: 41n,
          },
        };
      },
    });
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

describe('schema insight on the schema page', () => {
  it('dry-runs the draft beside Set policy and sums it up in one line', async () => {
    const { app, calls } = server('viewer');
    renderApp(app, '/schema/people');
    const editor = within(await screen.findByRole('form', { name: 'Policy editor' }));
    fireEvent.click(editor.getByRole('button', { name: 'Dry run' }));
    const summary = await editor.findByTestId('dry-run-summary');
    expect(summary.textContent).toBe(
      `12 of ${(40_000).toLocaleString()} entries would be refused; 11 × /email format, 1 × /age minimum`,
    );
    expect(JSON.parse(calls.dryRuns[0]!)).toEqual({ required: ['name'] });
  });

  it('switching a stored Audit policy to Enforce starts a dry run at once', async () => {
    const { app, calls } = server('viewer', StoreSchemaMode.AUDIT);
    renderApp(app, '/schema/people');
    const editor = within(await screen.findByRole('form', { name: 'Policy editor' }));
    expect(calls.dryRuns).toEqual([]);
    fireEvent.click(editor.getByRole('radio', { name: /^Enforce/ }));
    expect(await editor.findByTestId('dry-run-summary')).toBeTruthy();
    expect(calls.dryRuns).toHaveLength(1);
  });

  it('a viewer sees the letters but may not replay them, with the reason', async () => {
    const { app } = server('viewer');
    renderApp(app, '/schema/people');
    const section = within(await screen.findByRole('region', { name: 'Fix and replay' }));
    const button = (await section.findByRole('button', {
      name: 'Fix and replay p/9',
    })) as HTMLButtonElement;
    await waitFor(() =>
      expect(
        section.getAllByText('Needs the operator role (you are a viewer in tenant acme).').length,
      ).toBeGreaterThan(0),
    );
    expect(button.disabled).toBe(true);
  });

  it('checks the edited value against the policy as it is typed, then replays it', async () => {
    const { app, calls } = server('operator');
    renderApp(app, '/schema/people');
    const section = within(await screen.findByRole('region', { name: 'Fix and replay' }));
    const open = () => section.getByRole('button', { name: 'Fix and replay p/9' });
    await waitFor(() => expect((open() as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(open());
    const dialog = within(screen.getByRole('dialog', { name: 'Fix and replay p/9' }));
    const verdict = dialog.getByTestId('replay-validation');
    await waitFor(() => expect(verdict.textContent).toContain('1 error against the policy v3'));
    fireEvent.change(dialog.getByLabelText('Value'), { target: { value: '{"age":1,"name":"N"}' } });
    await waitFor(() => expect(verdict.textContent).toContain('Passes the policy v3 (Enforce)'));
    expect(calls.validated.at(-1)).toBe('{"age":1,"name":"N"}');
    fireEvent.click(dialog.getByRole('button', { name: 'Replay' }));
    await waitFor(() =>
      expect(calls.replayed).toEqual([{ id: 7n, value: '{"age":1,"name":"N"}' }]),
    );
  });
});
