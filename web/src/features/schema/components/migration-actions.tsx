import { ErrorText } from '../../../components/ui/error-text';
import { StoreSchemaApiOperation, type StoreSchemaVersionConfig } from '@store/contract';
import { useState } from 'react';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { parseVersion } from '../utils/version-config-draft';
import {
  useAdvanceTargetVersionMutation,
  useStartMigrationMutation,
} from '../api/use-version-config';
import { MigrationPreviewDialog } from './migration-preview-dialog';
import { RunProgress } from './run-progress';

/** Which run the preview dialog is open for: undefined target is a plain migration. */
interface PendingMigration {
  newTarget: number | undefined;
}

/**
 * Start a migration to the target, raise the target (AdvanceTargetVersion), or both at once
 * (StartAdvanceAndMigrate). A migration rewrites the tree, so both migrate buttons first open a
 * preview of it and run only on its confirm. Refusals (a gap in the chain) show here.
 */
export function MigrationActions({
  treeId,
  config,
  caps,
}: {
  treeId: string;
  config: StoreSchemaVersionConfig;
  caps: Capabilities<StoreSchemaApiOperation>;
}) {
  const [newTarget, setNewTarget] = useState(String(config.targetVersion + 1));
  const [runId, setRunId] = useState<string>();
  const [pending, setPending] = useState<PendingMigration>();
  const advance = useAdvanceTargetVersionMutation(treeId);
  const migrate = useStartMigrationMutation(treeId);
  const parsed = parseVersion(newTarget);
  const targetError = typeof parsed === 'string' ? parsed : undefined;
  const refusal = advance.error ?? migrate.error;

  const open = (target: number | undefined) => {
    advance.reset();
    migrate.reset();
    setPending({ newTarget: target });
  };
  const run = (target: number | undefined) => {
    migrate.mutate(target, {
      onSuccess: (handle) => {
        setRunId(handle.operationId);
        setPending(undefined);
      },
    });
  };

  return (
    <div className="stack">
      <div className="schema-actions">
        <GuardedButton
          variant="primary"
          disabled={config.currentVersion === config.targetVersion}
          onClick={() => open(undefined)}
          {...caps.guard(StoreSchemaApiOperation.START_MIGRATION)}
        >
          Start migration to version {config.targetVersion}
        </GuardedButton>
      </div>
      <div className="schema-form-row">
        <Field label="New target version" error={targetError}>
          {(control) => (
            <input
              {...control}
              className="input schema-number"
              inputMode="numeric"
              value={newTarget}
              onChange={(event) => {
                setNewTarget(event.target.value);
                advance.reset();
                migrate.reset();
              }}
            />
          )}
        </Field>
        <GuardedButton
          busy={advance.isPending}
          disabled={targetError !== undefined}
          onClick={() => {
            migrate.reset();
            if (typeof parsed === 'number') advance.mutate(parsed);
          }}
          {...caps.guard(StoreSchemaApiOperation.ADVANCE_TARGET_VERSION)}
        >
          Advance target
        </GuardedButton>
        <GuardedButton
          disabled={targetError !== undefined}
          onClick={() => {
            if (typeof parsed === 'number') open(parsed);
          }}
          {...caps.guard(StoreSchemaApiOperation.START_ADVANCE_AND_MIGRATE)}
        >
          Advance and migrate
        </GuardedButton>
      </div>
      {pending && (
        <MigrationPreviewDialog
          treeId={treeId}
          newTarget={pending.newTarget}
          configTarget={config.targetVersion}
          onConfirm={() => run(pending.newTarget)}
          confirming={migrate.isPending}
          confirmError={migrate.error}
          onClose={() => {
            migrate.reset();
            setPending(undefined);
          }}
        />
      )}
      {!pending && refusal && (
        <div className="field__error" role="alert">
          <ErrorText error={refusal} lead="Refused:" />
        </div>
      )}
      {runId && <RunProgress operationId={runId} />}
    </div>
  );
}
