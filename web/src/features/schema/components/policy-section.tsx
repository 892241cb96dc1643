import { ErrorText } from '../../../components/ui/error-text';
import { StoreSchemaApiOperation, StoreSchemaMode, type StoreSchemaPolicy } from '@store/contract';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { useActiveTenant } from '../../../lib/services';
import { needsEnforceConfirm, storedShape } from '../utils/enforce-confirm';
import { checkPolicyDraft } from '../utils/policy-draft';
import { useGetPolicyQuery } from '../../../lib/schema/use-get-policy-query';
import { useClearPolicyMutation, useSetPolicyMutation } from '../api/use-policy';
import { EnforceConfirmDialog } from './enforce-confirm-dialog';
import { DryRunButton, DryRunResult, usePolicyDryRun } from './policy-dry-run';
import { PolicyFields, policyDraftFrom, toPolicyInit } from './policy-fields';
import { SchemaSection } from '../../../components/schema/schema-section';
import { SubjectName } from '../../../components/identity/subject-name';

type SchemaCaps = Capabilities<StoreSchemaApiOperation>;

/** The tree's policy: what is stored, and the editor to set or clear it. */
export function PolicySection({ treeId, caps }: { treeId: string; caps: SchemaCaps }) {
  const query = useGetPolicyQuery(treeId);
  return (
    <SchemaSection id="policy" title="Policy">
      {query.isPending ? (
        <Spinner label="Loading the policy…" />
      ) : query.isError ? (
        <ErrorBanner
          title="Could not load the policy"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <StoredPolicy policy={query.data} />
          <PolicyEditor treeId={treeId} policy={query.data} caps={caps} />
        </>
      )}
    </SchemaSection>
  );
}

function policyStamp(policy: StoreSchemaPolicy | null): string {
  return policy
    ? `${policy.version}:${String(policy.updatedAt?.seconds ?? 0)}:${policy.updatedAt?.nanos ?? 0}`
    : 'none';
}

function StoredPolicy({ policy }: { policy: StoreSchemaPolicy | null }) {
  if (!policy) {
    return <p className="muted">No policy: every write is accepted as is.</p>;
  }
  return (
    <dl className="facts">
      <dt>Mode</dt>
      <dd>
        {policy.mode === StoreSchemaMode.AUDIT ? (
          <Badge tone="warning">Audit</Badge>
        ) : (
          <Badge tone="info">Enforce</Badge>
        )}
      </dd>
      <dt>Version</dt>
      <dd>{policy.version}</dd>
      {policy.description && (
        <>
          <dt>Description</dt>
          <dd>{policy.description}</dd>
        </>
      )}
      <dt>Updated</dt>
      <dd>
        <Time value={policy.updatedAt} /> by <SubjectName subject={policy.updatedBy} />
      </dd>
    </dl>
  );
}

function PolicyEditor({
  treeId,
  policy,
  caps,
}: {
  treeId: string;
  policy: StoreSchemaPolicy | null;
  caps: SchemaCaps;
}) {
  const tenant = useActiveTenant();
  const [draft, setDraft] = useState(() => policyDraftFrom(policy));
  // The editor starts again from what was saved, but stays mounted: the dry-run result and the
  // focus (back on Set policy after the confirm) survive a save.
  const stamp = policyStamp(policy);
  const [draftStamp, setDraftStamp] = useState(stamp);
  if (draftStamp !== stamp) {
    setDraftStamp(stamp);
    setDraft(policyDraftFrom(policy));
  }
  const [confirmClear, setConfirmClear] = useState(false);
  const [confirmEnforce, setConfirmEnforce] = useState(false);
  const setPolicy = useSetPolicyMutation(treeId);
  const clearPolicy = useClearPolicyMutation(treeId);
  // Checked on every keystroke: the syntax error and its position show before anything is sent.
  const check = checkPolicyDraft(draft);
  const errors = check.ok ? {} : check.errors;
  const dryRun = usePolicyDryRun(treeId);
  const draftSchema = check.ok ? check.policy.jsonSchema : null;

  return (
    <form
      className="stack"
      aria-label="Policy editor"
      onSubmit={(event) => {
        event.preventDefault();
        if (!check.ok) return;
        if (needsEnforceConfirm(storedShape(policy), check.policy)) setConfirmEnforce(true);
        else setPolicy.mutate(toPolicyInit(check.policy));
      }}
    >
      <PolicyFields
        draft={draft}
        onChange={(next) => {
          setDraft(next);
          setPolicy.reset();
          // Switching a stored AUDIT policy to ENFORCE starts a dry run at once (issue 16): the
          // admin sees what would be refused before pressing Set policy.
          const switched = policy?.mode === StoreSchemaMode.AUDIT && draft.mode !== 'ENFORCE';
          const nextCheck = checkPolicyDraft(next);
          if (switched && next.mode === 'ENFORCE' && nextCheck.ok) {
            dryRun.begin(nextCheck.policy.jsonSchema);
          }
        }}
        errors={errors}
      />
      {setPolicy.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={setPolicy.error} lead="The server refused the policy:" />
        </div>
      )}
      <div className="schema-actions">
        <GuardedButton
          type="submit"
          variant="primary"
          busy={setPolicy.isPending}
          disabled={!check.ok}
          {...caps.guard(StoreSchemaApiOperation.SET_POLICY)}
        >
          Set policy
        </GuardedButton>
        <DryRunButton dryRun={dryRun} jsonSchema={draftSchema} />
        {policy && (
          <GuardedButton
            variant="danger"
            onClick={() => setConfirmClear(true)}
            {...caps.guard(StoreSchemaApiOperation.CLEAR_POLICY)}
          >
            Clear policy
          </GuardedButton>
        )}
      </div>
      <DryRunResult
        dryRun={dryRun}
        jsonSchema={draftSchema}
        switchingToEnforce={policy?.mode === StoreSchemaMode.AUDIT && draft.mode === 'ENFORCE'}
      />
      {confirmEnforce && check.ok && (
        <EnforceConfirmDialog
          action="policy"
          treeId={treeId}
          tenant={tenant}
          jsonSchema={check.policy.jsonSchema}
          dryRun={dryRun}
          busy={setPolicy.isPending}
          onCancel={() => setConfirmEnforce(false)}
          onRunDryRun={() => {
            setConfirmEnforce(false);
            dryRun.begin(check.policy.jsonSchema);
          }}
          onEnforce={() =>
            setPolicy.mutate(toPolicyInit(check.policy), {
              onSettled: () => setConfirmEnforce(false),
            })
          }
          onAudit={() =>
            setPolicy.mutate(toPolicyInit({ ...check.policy, mode: 'AUDIT' }), {
              onSettled: () => setConfirmEnforce(false),
            })
          }
        />
      )}
      <ConfirmDialog
        open={confirmClear}
        title="Clear the policy?"
        confirmLabel="Clear policy"
        tone="danger"
        busy={clearPolicy.isPending}
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => clearPolicy.mutate(undefined, { onSettled: () => setConfirmClear(false) })}
      >
        <p>
          Remove the schema policy of tree <strong>{treeId}</strong> in tenant{' '}
          <strong>{tenant}</strong>?
        </p>
        <p className="muted">
          Writes are no longer checked. Stored values and dead letters stay as they are.
        </p>
      </ConfirmDialog>
    </form>
  );
}
