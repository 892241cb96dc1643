import { StoreSchemaApiOperation, type StoreSchemaVersionConfig } from '@store/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { useActiveTenant } from '../../../lib/services';
import { useClearVersionConfigMutation, useGetVersionConfigQuery } from '../api/use-version-config';
import { MigrationActions } from './migration-actions';
import { MigrationList } from './migration-list';
import { SchemaSection } from '../../../components/schema/schema-section';
import { VersionConfigForm } from './version-config-form';

type SchemaCaps = Capabilities<StoreSchemaApiOperation>;

/** The tree's version config, its migrations, and the runs that move entries to the target. */
export function VersionSection({ treeId, caps }: { treeId: string; caps: SchemaCaps }) {
  const query = useGetVersionConfigQuery(treeId);
  return (
    <SchemaSection id="versions" title="Versions and migrations">
      {query.isPending ? (
        <Spinner label="Loading the version config…" />
      ) : query.isError ? (
        <ErrorBanner
          title="Could not load the version config"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <StoredConfig config={query.data} />
          {query.data && <MigrationActions treeId={treeId} config={query.data} caps={caps} />}
          <h3 className="schema-subtitle">
            {query.data ? 'Edit version config' : 'Set a version config'}
          </h3>
          <VersionConfigForm
            key={configStamp(query.data)}
            treeId={treeId}
            config={query.data}
            guard={caps.guard(StoreSchemaApiOperation.SET_VERSION_CONFIG)}
          />
          {query.data && <ClearVersionConfig treeId={treeId} caps={caps} />}
        </>
      )}
    </SchemaSection>
  );
}

// The editor restarts from the stored config whenever it changes (saved, advanced, migrated).
function configStamp(config: StoreSchemaVersionConfig | null): string {
  if (!config) return 'none';
  return JSON.stringify([config.currentVersion, config.targetVersion, config.migrations.length]);
}

function StoredConfig({ config }: { config: StoreSchemaVersionConfig | null }) {
  if (!config) {
    return <p className="muted">No version config: entries are written at version 0.</p>;
  }
  return (
    <>
      <dl className="facts">
        <dt>Current version</dt>
        <dd data-testid="current-version">{config.currentVersion}</dd>
        <dt>Target version</dt>
        <dd data-testid="target-version">{config.targetVersion}</dd>
      </dl>
      <MigrationList steps={config.migrations} />
    </>
  );
}

function ClearVersionConfig({ treeId, caps }: { treeId: string; caps: SchemaCaps }) {
  const tenant = useActiveTenant();
  const [confirming, setConfirming] = useState(false);
  const clear = useClearVersionConfigMutation(treeId);
  return (
    <div className="schema-actions">
      <GuardedButton
        variant="danger"
        onClick={() => setConfirming(true)}
        {...caps.guard(StoreSchemaApiOperation.CLEAR_VERSION_CONFIG)}
      >
        Clear version config
      </GuardedButton>
      <ConfirmDialog
        open={confirming}
        title="Clear the version config?"
        confirmLabel="Clear version config"
        tone="danger"
        busy={clear.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => clear.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        <p>
          Remove the version config and migration steps of tree <strong>{treeId}</strong> in tenant{' '}
          <strong>{tenant}</strong>?
        </p>
        <p className="muted">New writes are stamped version 0; stored entries are not changed.</p>
      </ConfirmDialog>
    </div>
  );
}
