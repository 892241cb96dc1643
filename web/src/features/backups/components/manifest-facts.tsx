import type { BackupManifest } from '@store/contract';
import { SubjectName } from '../../../components/identity/subject-name';
import { CopyableId } from '../../../components/ui/copyable-id';
import { Time } from '../../../components/ui/time';
import { formatBytes } from '../../../lib/format';
import { entryCountWords, sequenceRangeRaw, sequenceRangeWords } from '../utils/manifest-words';
import { KindBadge } from './catalog-table';
import { HealthBadge } from './health-badge';

/** Everything the manifest says about a backup, as a definition list. */
export function ManifestFacts({ manifest }: { manifest: BackupManifest }) {
  const labels = Object.entries(manifest.labels);
  return (
    <dl className="facts">
      <dt>Kind</dt>
      <dd>
        <KindBadge kind={manifest.kind} />
      </dd>
      <dt>Tree</dt>
      <dd>{manifest.treeId}</dd>
      <dt>Key prefix</dt>
      <dd className="mono">{manifest.keyPrefix ?? <span className="muted">whole tree</span>}</dd>
      <dt>Created</dt>
      <dd>
        <Time value={manifest.createdAt} />
      </dd>
      <dt>Completed</dt>
      <dd>
        <Time value={manifest.completedAt} />
      </dd>
      <dt>Created by</dt>
      <dd>
        <SubjectName subject={manifest.createdBy} />
      </dd>
      <dt>Changes</dt>
      <dd title={`Sequence range ${sequenceRangeRaw(manifest.fromSequence, manifest.toSequence)}`}>
        {sequenceRangeWords(manifest.fromSequence, manifest.toSequence)}
      </dd>
      <dt>Entries</dt>
      <dd>{entryCountWords(manifest.entryCount, manifest.tombstoneCount)}</dd>
      <dt>Stored size</dt>
      <dd>{formatBytes(manifest.byteSize)}</dd>
      <dt>Schema version</dt>
      <dd>{manifest.schemaVersion}</dd>
      <dt>Last verified</dt>
      <dd>
        {/* A backup never verified says so once, in the badge. */}
        <HealthBadge manifest={manifest} />
        {manifest.lastVerifiedAt && (
          <>
            {' '}
            <Time value={manifest.lastVerifiedAt} />
          </>
        )}
      </dd>
      {manifest.setId && (
        <>
          <dt>Set</dt>
          <dd>
            <CopyableId id={manifest.setId} label="set id" />
          </dd>
        </>
      )}
      {labels.length > 0 && (
        <>
          <dt>Labels</dt>
          <dd>
            <ul className="inline-list">
              {labels.map(([key, value]) => (
                <li key={key} className="mono">
                  {key}={value}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
