import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { ErrorText } from '../../../components/ui/error-text';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { useRoles } from '../../../lib/identity/use-roles';
import { useSubjectName } from '../../../lib/identity/use-subject-name';
import { useToast } from '../../../lib/services';
import { UnsavedChangesGuard } from '../../../lib/forms/unsaved-changes-guard';
import {
  draftFromResponse,
  parseRulesDraft,
  sameRules,
  type RulesDraft,
} from '../utils/rules-draft';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import {
  useRetentionPreviewQuery,
  useRetentionRulesQuery,
  useSetRetentionRulesMutation,
  type RetentionScope,
} from '../api/use-retention';
import { ApplyRetention } from './apply-retention';
import { AutoApplyConfirm } from './auto-apply-confirm';
import { PreviewLists } from './preview-lists';
import { RulesForm } from './rules-form';

/** How long the form waits after the last keystroke before it asks for a preview. */
const PREVIEW_DEBOUNCE_MS = 300;

/** A scope's retention: its stored rules loaded into a form; the section below once loaded. */
export function RetentionSection({
  scope,
  scopeLabel,
}: {
  scope: RetentionScope;
  scopeLabel: string;
}) {
  const rules = useRetentionRulesQuery(scope);
  if (rules.isPending) return <Spinner label="Loading the retention rules…" />;
  if (rules.isError) {
    return (
      <ErrorBanner
        title={`Could not load the retention rules of ${scopeLabel}`}
        error={rules.error}
        onRetry={() => void rules.refetch()}
      />
    );
  }
  return (
    <RetentionEditor
      scope={scope}
      scopeLabel={scopeLabel}
      stored={draftFromResponse(rules.data)}
      configured={rules.data.configured}
      updated={rules.data.configured ? rules.data : undefined}
    />
  );
}

function RetentionEditor({
  scope,
  scopeLabel,
  stored,
  configured,
  updated,
}: {
  scope: RetentionScope;
  scopeLabel: string;
  stored: RulesDraft;
  configured: boolean;
  updated: { updatedAt?: Timestamp | undefined; updatedBy: string } | undefined;
}) {
  const roles = useRoles();
  const toast = useToast();
  const savedBy = useSubjectName(updated?.updatedBy ?? '');
  const [draft, setDraft] = useState(stored);
  const parsed = useMemo(() => parseRulesDraft(draft), [draft]);
  const unsaved = !configured || !sameRules(draft, stored);
  // The live preview: the form's rules as they are typed, before anything is saved.
  const settled = useDebouncedValue(parsed, PREVIEW_DEBOUNCE_MS);
  const livePreview = useRetentionPreviewQuery(scope, settled.ok ? settled.rules : undefined, {
    enabled: settled.ok,
  });
  const save = useSetRetentionRulesMutation(scope);
  const canSave = roles.atLeast('admin');
  // Turning on "apply after each scheduled backup" (new rules start with it off, unless the
  // server is set otherwise) is a choice made at save, beside what these rules delete now.
  const turningOnAutoApply =
    parsed.ok && parsed.applyAfterSchedule && !(configured && stored.applyAfterSchedule);
  const [confirmingAutoApply, setConfirmingAutoApply] = useState(false);

  const doSave = () => {
    if (!parsed.ok) return;
    save.mutate(
      { rules: parsed.rules, applyAfterSchedule: parsed.applyAfterSchedule },
      {
        onSuccess: () => {
          setConfirmingAutoApply(false);
          toast({
            tone: 'success',
            title: `Retention rules of ${scopeLabel} saved`,
            detail: parsed.applyAfterSchedule
              ? 'They apply by themselves after each scheduled backup.'
              : 'They apply only when you apply a preview.',
          });
        },
        onError: () => setConfirmingAutoApply(false),
      },
    );
  };
  const onSave = () => {
    if (turningOnAutoApply) setConfirmingAutoApply(true);
    else doSave();
  };

  return (
    <div className="stack">
      <UnsavedChangesGuard
        dirty={!sameRules(draft, stored) && !save.isPending}
        what={`the retention rules of ${scopeLabel}`}
      />
      <section className="panel" aria-labelledby="retention-rules">
        <h2 id="retention-rules" className="panel__title retention-title">
          Rules of {scopeLabel}
        </h2>
        <p className="muted">
          {configured && updated ? (
            <>
              Saved <Time value={updated.updatedAt} /> by {savedBy.name}. Incrementals are kept with
              their whole chain, protected backups always stay, and a set stays whole.
            </>
          ) : (
            'No rules yet: nothing is deleted. Try rules below and see what they would delete.'
          )}
        </p>
        <RulesForm draft={draft} parsed={parsed} onChange={setDraft} />
        <div className="retention-actions">
          <GuardedButton
            variant="primary"
            allowed={canSave}
            reason={roles.needs('admin')}
            disabled={!parsed.ok || !unsaved || roles.isLoading}
            busy={save.isPending}
            onClick={onSave}
          >
            Save rules
          </GuardedButton>
          {configured && unsaved && (
            <Button variant="ghost" onClick={() => setDraft(stored)}>
              Undo changes
            </Button>
          )}
        </div>
        {save.isError && (
          <div role="alert">
            <ErrorText error={save.error} lead="The rules were not saved:" />
          </div>
        )}
        <AutoApplyConfirm
          open={confirmingAutoApply}
          scope={scope}
          scopeLabel={scopeLabel}
          rules={parsed.ok ? parsed.rules : undefined}
          busy={save.isPending}
          onConfirm={doSave}
          onCancel={() => setConfirmingAutoApply(false)}
        />
      </section>
      <section
        className="panel"
        aria-labelledby="retention-preview"
        aria-busy={livePreview.isFetching}
      >
        <h2 id="retention-preview" className="panel__title retention-title">
          {unsaved ? 'Preview of these rules (not saved)' : 'Preview of the saved rules'}
        </h2>
        {livePreview.isError ? (
          <div role="alert">
            <ErrorText error={livePreview.error} lead="No preview of these rules:" />
          </div>
        ) : livePreview.data ? (
          <PreviewLists preview={livePreview.data} />
        ) : (
          <Spinner label="Previewing…" />
        )}
        <ApplyRetention
          scope={scope}
          scopeLabel={scopeLabel}
          blockedBy={
            !configured
              ? 'Save rules first: an apply deletes what the saved rules preview'
              : unsaved
                ? 'Save or undo the changes first: an apply deletes what the saved rules preview'
                : null
          }
        />
      </section>
    </div>
  );
}
