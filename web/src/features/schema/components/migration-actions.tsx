import { StoreSchemaApiOperation, type StoreSchemaVersionConfig } from '@store/contract';
import { useState } from 'react';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { describeError } from '../../../lib/errors';
import { parseVersion } from '../api/version-config-draft';
import {
  useAdvanceTargetVersionMutation,
  useStartMigrationMutation,
} from '../hooks/use-version-config';
import { RunProgress } from './run-progress';

/**
 * Start a migration to the target, raise the target (AdvanceTargetVersion), or both at once
 * (StartAdvanceAndMigrate). Refusals (a target below current, a gap in the chain) show here.
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
  const advance = useAdvanceTargetVersionMutation(treeId);
  const migrate = useStartMigrationMutation(treeId);
  const parsed = parseVersion(newTarget);
  const targetError = typeof parsed === 'string' ? parsed : undefined;
  const refusal = advance.error ?? migrate.error;

  const start = (target: number | undefined) => {
    advance.reset();
    migrate.mutate(target, { onSuccess: (handle) => setRunId(handle.operationId) });
  };

  return (
    <div className="stack">
      <div className="schema-actions">
        <GuardedButton
          variant="primary"
          busy={migrate.isPending && migrate.variables === undefined}
          disabled={config.currentVersion === config.targetVersion}
          onClick={() => start(undefined)}
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
          busy={migrate.isPending && migrate.variables !== undefined}
          disabled={targetError !== undefined}
          onClick={() => {
            if (typeof parsed === 'number') start(parsed);
          }}
          {...caps.guard(StoreSchemaApiOperation.START_ADVANCE_AND_MIGRATE)}
        >
          Advance and migrate
        </GuardedButton>
      </div>
      {refusal && (
        <p className="field__error" role="alert">
          Refused: {describeError(refusal)}
        </p>
      )}
      {runId && <RunProgress operationId={runId} />}
    </div>
  );
}
