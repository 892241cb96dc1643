import { ErrorText } from '../../../components/ui/error-text';
import { StoreOperationState, StoreSchemaApiOperation } from '@store/contract';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { exampleTransform } from '../utils/example-transform';
import { parsePatch } from '../utils/json-patch';
import { needsEnforceConfirm, storedShape } from '../utils/enforce-confirm';
import { checkPolicyDraft, type CheckedPolicy } from '../utils/policy-draft';
import { useActiveTenant } from '../../../lib/services';
import { EnforceConfirmDialog } from './enforce-confirm-dialog';
import { DryRunButton, DryRunResult, usePolicyDryRun } from './policy-dry-run';
import { useGetPolicyQuery } from '../../../lib/schema/use-get-policy-query';
import { useGetRemediationStatusQuery, useStartRemediationMutation } from '../api/use-remediation';
import { JsonTextField } from '../../../components/schema/json-text-field';
import { PolicyFields, policyDraftFrom, toPolicyInit } from './policy-fields';
import { RemediationReportFacts } from './remediation-report';
import { RunProgress } from './run-progress';
import { SchemaSection } from '../../../components/schema/schema-section';

type SchemaCaps = Capabilities<StoreSchemaApiOperation>;

/**
 * Remediation: values failing the target policy get the transform; fixed ones are written back,
 * the rest dead-lettered; on success the target policy becomes the tree's policy.
 */
export function RemediationSection({ treeId, caps }: { treeId: string; caps: SchemaCaps }) {
  const policy = useGetPolicyQuery(treeId);
  return (
    <SchemaSection id="remediation" title="Remediation">
      <p className="muted">
        Values that already pass the target policy are left alone; failing ones get the transform
        and are written back if they then pass, or go to dead letters if not. When the run succeeds,
        the target policy becomes the tree&apos;s policy.
      </p>
      {policy.isPending ? (
        <Spinner label="Loading the policy…" />
      ) : (
        // The target policy starts from the tree's current one (or a blank schema).
        <RemediationForm treeId={treeId} caps={caps} initialPolicy={policy.data ?? null} />
      )}
      <h3 className="schema-subtitle">Remediation status</h3>
      <RemediationStatus treeId={treeId} />
    </SchemaSection>
  );
}

function RemediationForm({
  treeId,
  caps,
  initialPolicy,
}: {
  treeId: string;
  caps: SchemaCaps;
  initialPolicy: Parameters<typeof policyDraftFrom>[0];
}) {
  // A patch for this tree's policy (adds what it requires), for the admin to edit.
  const [transform, setTransform] = useState(() => exampleTransform(initialPolicy?.jsonSchema));
  const [policy, setPolicy] = useState(() => policyDraftFrom(initialPolicy));
  const [runId, setRunId] = useState<string>();
  const [confirmEnforce, setConfirmEnforce] = useState(false);
  const tenant = useActiveTenant();
  const start = useStartRemediationMutation(treeId);
  const dryRun = usePolicyDryRun(treeId);
  const patch = parsePatch(transform);
  const target = checkPolicyDraft(policy);
  const targetSchema = target.ok ? target.policy.jsonSchema : null;

  const run = (targetPolicy: CheckedPolicy) => {
    if (!patch.ok) return;
    start.mutate(
      { ops: patch.ops, targetPolicy: toPolicyInit(targetPolicy) },
      {
        onSuccess: (handle) => setRunId(handle.operationId),
        onSettled: () => setConfirmEnforce(false),
      },
    );
  };

  return (
    <form
      className="stack"
      aria-label="Remediation"
      onSubmit={(event) => {
        event.preventDefault();
        if (!patch.ok || !target.ok) return;
        // A successful run makes the target the tree's policy: under Enforce, writes that fail it
        // are refused from then on, so that asks first (issue 33), as Set policy does.
        if (needsEnforceConfirm(storedShape(initialPolicy), target.policy)) setConfirmEnforce(true);
        else run(target.policy);
      }}
    >
      <JsonTextField
        label="Transform (JSON Patch)"
        hint="Applied to each value that fails the target policy. It starts by adding what the policy requires; edit it before running: an add replaces a value already there."
        value={transform}
        onChange={(next) => {
          setTransform(next);
          start.reset();
        }}
        error={patch.ok ? null : patch.message}
        rows={5}
      />
      <PolicyFields
        labelPrefix="Target"
        draft={policy}
        onChange={(next) => {
          setPolicy(next);
          start.reset();
        }}
        errors={target.ok ? {} : target.errors}
      />
      {start.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={start.error} lead="Refused:" />
        </div>
      )}
      <div className="schema-actions">
        <GuardedButton
          type="submit"
          variant="primary"
          busy={start.isPending}
          disabled={!patch.ok || !target.ok}
          {...caps.guard(StoreSchemaApiOperation.START_REMEDIATION)}
        >
          Start remediation
        </GuardedButton>
        <DryRunButton dryRun={dryRun} jsonSchema={targetSchema} />
      </div>
      <DryRunResult dryRun={dryRun} jsonSchema={targetSchema} switchingToEnforce={false} />
      {runId && <RunProgress operationId={runId} />}
      {confirmEnforce && target.ok && (
        <EnforceConfirmDialog
          action="remediation"
          treeId={treeId}
          tenant={tenant}
          jsonSchema={target.policy.jsonSchema}
          dryRun={dryRun}
          busy={start.isPending}
          onCancel={() => setConfirmEnforce(false)}
          onRunDryRun={() => {
            setConfirmEnforce(false);
            dryRun.begin(target.policy.jsonSchema);
          }}
          onEnforce={() => run(target.policy)}
          onAudit={() => {
            // The form shows what was started.
            setPolicy({ ...policy, mode: 'AUDIT' });
            run({ ...target.policy, mode: 'AUDIT' });
          }}
        />
      )}
    </form>
  );
}

function RemediationStatus({ treeId }: { treeId: string }) {
  const query = useGetRemediationStatusQuery(treeId);
  if (query.isPending) return <Spinner label="Loading the remediation status…" />;
  if (query.isError) {
    return (
      <ErrorBanner
        title="Could not load the remediation status"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  // A tree never remediated or migrated has the empty report (state UNSPECIFIED).
  if (query.data.state === StoreOperationState.UNSPECIFIED)
    return <p className="muted">No remediation or migration has run on this tree.</p>;
  return (
    <div aria-label="Latest remediation or migration" role="group">
      <RemediationReportFacts report={query.data} />
    </div>
  );
}
