import { fromSchemaInsightStatus } from '../../../lib/operations/schema-insight-operations';
import { ErrorText } from '../../../components/ui/error-text';
import type { SchemaInsightOperationStatus } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useState } from 'react';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { Button } from '../../../components/ui/button';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Table } from '../../../components/ui/table';
import { formatCount } from '../../../lib/format';
import { useRoles } from '../../../lib/identity/use-roles';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { dryRunSummary } from '../utils/dry-run-summary';
import { sameSchema } from '../utils/enforce-confirm';
import { useCancelSchemaInsightMutation } from '../../../lib/schema/use-cancel-schema-insight-mutation';
import { useSchemaInsightOperationQuery } from '../../../lib/schema/use-schema-insight-operation-query';
import { useStartPolicyDryRunMutation } from '../api/use-start-policy-dry-run-mutation';

/** A dry-run started from the editor: its operation and the schema text it evaluates. */
export interface PolicyDryRunState {
  start: ReturnType<typeof useStartPolicyDryRunMutation>;
  run: { operationId: string; jsonSchema: string } | null;
  begin(jsonSchema: string): void;
}

/** Keeps the editor's latest dry-run (a new one replaces it). */
export function usePolicyDryRun(treeId: string): PolicyDryRunState {
  const start = useStartPolicyDryRunMutation(treeId);
  const [run, setRun] = useState<PolicyDryRunState['run']>(null);
  return {
    start,
    run,
    begin(jsonSchema) {
      start.mutate(jsonSchema, {
        onSuccess: (handle) => setRun({ operationId: handle.operationId, jsonSchema }),
      });
    },
  };
}

/** "Dry run" beside the Save button: evaluates the draft against the tree's entries. */
export function DryRunButton({
  dryRun,
  jsonSchema,
}: {
  dryRun: PolicyDryRunState;
  jsonSchema: string | null;
}) {
  return (
    <Button
      type="button"
      busy={dryRun.start.isPending}
      disabled={jsonSchema === null}
      onClick={() => jsonSchema !== null && dryRun.begin(jsonSchema)}
    >
      Dry run
    </Button>
  );
}

/** The dry-run's progress, then what the draft would refuse (issue 16, section 3). */
export function DryRunResult({
  dryRun,
  jsonSchema,
  switchingToEnforce,
}: {
  dryRun: PolicyDryRunState;
  jsonSchema: string | null;
  switchingToEnforce: boolean;
}) {
  const status = useSchemaInsightOperationQuery(dryRun.run?.operationId);
  return (
    <div className="schema-dry-run" aria-live="polite" data-testid="policy-dry-run">
      {switchingToEnforce && !dryRun.run && (
        <p className="muted">
          Switching from Audit to Enforce refuses every write that fails the schema: a dry run shows
          which stored entries would fail.
        </p>
      )}
      {dryRun.start.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={dryRun.start.error} lead="The dry run could not start:" />
        </div>
      )}
      {status.data && (
        <DryRunStatus
          status={status.data}
          stale={
            dryRun.run !== null &&
            (jsonSchema === null || !sameSchema(dryRun.run.jsonSchema, jsonSchema))
          }
        />
      )}
    </div>
  );
}

function DryRunStatus({ status, stale }: { status: SchemaInsightOperationStatus; stale: boolean }) {
  const roles = useRoles();
  const cancel = useCancelSchemaInsightMutation();
  if (isActiveState(status.state)) {
    return (
      <div className="stack">
        <p>
          Dry run{' '}
          <OperationStateBadge
            state={status.state}
            cancelRequested={status.cancelRequested}
            operation={fromSchemaInsightStatus(status)}
          />
        </p>
        <ProgressBar
          label="Dry-run progress"
          done={status.progress?.done ?? 0n}
          total={status.progress?.total ?? 0n}
          unit={status.progress?.unit}
        />
        <GuardedButton
          type="button"
          busy={cancel.isPending}
          allowed={roles.atLeast('operator')}
          reason={roles.needs('operator')}
          onClick={() => cancel.mutate(status.operationId)}
        >
          Cancel dry run
        </GuardedButton>
      </div>
    );
  }
  if (status.error) {
    return (
      <div className="field__error">
        <ErrorText operationError={status.error} lead="Dry run failed:" />
      </div>
    );
  }
  if (status.result.case !== 'dryRun') {
    return (
      <p>
        Dry run{' '}
        <OperationStateBadge
          state={status.state}
          cancelRequested={status.cancelRequested}
          operation={fromSchemaInsightStatus(status)}
        />
      </p>
    );
  }
  const report = status.result.value;
  return (
    <div className="stack">
      <p data-testid="dry-run-summary">
        <strong>{dryRunSummary(report)}</strong>
        {stale && <span className="muted"> (for an earlier draft: run it again)</span>}
      </p>
      {report.groups.length > 0 && (
        <Table
          caption="Failures by keyword and path"
          columns={[
            {
              id: 'count',
              header: 'Entries',
              numeric: true,
              cell: (g) => formatCount(g.entryCount),
            },
            {
              id: 'path',
              header: 'Path',
              cell: (g) => <span className="mono">{g.instancePath || '(root)'}</span>,
            },
            {
              id: 'keyword',
              header: 'Keyword',
              cell: (g) => <span className="mono">{g.keyword}</span>,
            },
            { id: 'example', header: 'Example', cell: (g) => g.exampleMessage },
          ]}
          rows={report.groups}
          rowKey={(g) => `${g.keyword}\u0000${g.instancePath}`}
        />
      )}
      {report.samples.length > 0 && (
        <details>
          <summary>Sample of failing keys ({report.samples.length})</summary>
          <ul className="schema-errors">
            {report.samples.map((sample) => (
              <li key={sample.key}>
                <span className="mono">{sample.key}</span>: {sample.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
