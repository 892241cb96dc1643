import { ErrorText } from '../../../components/ui/error-text';
import { StoreOperationState, StoreSchemaApiOperation } from '@store/contract';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { parsePatch } from '../api/json-patch';
import { checkPolicyDraft } from '../api/policy-draft';
import { useGetPolicyQuery } from '../hooks/use-policy';
import {
  useGetRemediationStatusQuery,
  useStartRemediationMutation,
} from '../hooks/use-remediation';
import { JsonTextField } from './json-text-field';
import { PolicyFields, policyDraftFrom, toPolicyInit } from './policy-fields';
import { RemediationReportFacts } from './remediation-report';
import { RunProgress } from './run-progress';
import { SchemaSection } from './schema-section';

type SchemaCaps = Capabilities<StoreSchemaApiOperation>;

const EXAMPLE_TRANSFORM = '[\n  { "op": "add", "path": "/status", "value": "unknown" }\n]';

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
  const [transform, setTransform] = useState(EXAMPLE_TRANSFORM);
  const [policy, setPolicy] = useState(() => policyDraftFrom(initialPolicy));
  const [runId, setRunId] = useState<string>();
  const start = useStartRemediationMutation(treeId);
  const patch = parsePatch(transform);
  const target = checkPolicyDraft(policy);

  return (
    <form
      className="stack"
      aria-label="Remediation"
      onSubmit={(event) => {
        event.preventDefault();
        if (!patch.ok || !target.ok) return;
        start.mutate(
          { ops: patch.ops, targetPolicy: toPolicyInit(target.policy) },
          { onSuccess: (handle) => setRunId(handle.operationId) },
        );
      }}
    >
      <JsonTextField
        label="Transform (JSON Patch)"
        hint="Applied to each value that fails the target policy, e.g. add a missing field."
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
      </div>
      {runId && <RunProgress operationId={runId} />}
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
