import { StoreBackupApiOperation, type BackupArtifact, type BackupManifest } from '@store/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { formatBytes, formatCount } from '../../../lib/format';
import { needsHealthOverride } from '../utils/health-freshness';
import { useExportArtifactMutation } from '../api/use-export-artifact-mutation';
import { HealthOverride } from './health-override';

export interface ArtifactsPanelProps {
  manifest: BackupManifest;
  caps: Capabilities<StoreBackupApiOperation>;
}

/** The backup's stored files with sizes and checksums; each can be exported as a download. */
export function ArtifactsPanel({ manifest, caps }: ArtifactsPanelProps) {
  const exporter = useExportArtifactMutation(manifest.backupId);
  const [confirming, setConfirming] = useState<BackupArtifact | null>(null);
  const [override, setOverride] = useState(false);
  const [overrideError, setOverrideError] = useState<string>();
  const guard = caps.guard(StoreBackupApiOperation.EXPORT_ARTIFACT);
  const busy = exporter.isPending;
  const exporting = exporter.variables;

  const startExport = (artifact: BackupArtifact) => {
    if (needsHealthOverride(manifest)) {
      setOverride(false);
      setOverrideError(undefined);
      setConfirming(artifact);
    } else {
      exporter.mutate(artifact);
    }
  };

  return (
    <section className="panel" aria-labelledby="backup-artifacts">
      <h2 id="backup-artifacts" className="panel__title">
        Artifacts
      </h2>
      {manifest.artifacts.length === 0 ? (
        <p className="muted">This backup holds no artifact (nothing changed since its base).</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--stack">
            <caption className="visually-hidden">Artifacts of {manifest.backupId}</caption>
            <thead>
              <tr>
                <th scope="col">Artifact</th>
                <th scope="col" className="num">
                  Entries
                </th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">SHA-256 (stored bytes)</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {manifest.artifacts.map((artifact) => (
                <tr key={artifact.artifactId}>
                  <td className="mono" data-label="Artifact">
                    {artifact.artifactId}
                  </td>
                  <td className="num" data-label="Entries">
                    {formatCount(artifact.entryCount)}
                  </td>
                  <td
                    className="num"
                    data-label="Size"
                    title={`${formatCount(artifact.byteSize)} bytes`}
                  >
                    {formatBytes(artifact.byteSize)}
                  </td>
                  <td className="mono bk-sha" data-label="SHA-256" data-testid="artifact-sha256">
                    {artifact.sha256}
                  </td>
                  <td>
                    <GuardedButton
                      {...guard}
                      busy={busy && exporter.variables?.artifactId === artifact.artifactId}
                      disabled={busy}
                      aria-label={`Export ${artifact.artifactId}`}
                      onClick={() => startExport(artifact)}
                    >
                      Export
                    </GuardedButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manifest.artifacts.length > 0 && (
        <p className="muted">
          An export is kept only when its size and SHA-256 match the values above.
        </p>
      )}
      {busy && exporting && (
        <div className="bk-export-progress">
          <ProgressBar
            label={`Export of ${exporting.artifactId}`}
            done={exporter.bytesReceived}
            total={exporting.byteSize}
            unit="bytes"
          />
          <Button variant="ghost" onClick={exporter.cancel}>
            Cancel export
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Export a backup that failed its health check?"
        confirmLabel="Export anyway"
        cancelLabel="Don’t export"
        tone="danger"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          if (!override) {
            setOverrideError('Tick the box to export it anyway.');
            return;
          }
          exporter.mutate(confirming);
          setConfirming(null);
        }}
      >
        <HealthOverride
          manifest={manifest}
          action="export"
          checked={override}
          onChange={setOverride}
          error={overrideError}
        />
      </ConfirmDialog>
    </section>
  );
}
