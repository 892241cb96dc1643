import { BackupDifferenceChange } from '@store/contract';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { ErrorBanner } from '../ui/error-banner';
import { JsonDiffView } from '../ui/json-diff-view';
import { Spinner } from '../ui/spinner';
import { formatCount } from '../../lib/format';
import { useBackupDifferencesQuery } from '../../lib/comparisons/use-backup-comparison';
import { DEFAULT_CHANGE_LABELS, type ChangeLabels } from './comparison-counts';

function changesOf(labels: ChangeLabels): Record<BackupDifferenceChange, [string, BadgeTone]> {
  return {
    [BackupDifferenceChange.UNSPECIFIED]: ['Unknown', 'neutral'],
    [BackupDifferenceChange.ADDED]: [labels.added, 'success'],
    [BackupDifferenceChange.CHANGED]: [labels.changed, 'warning'],
    [BackupDifferenceChange.REMOVED]: [labels.removed, 'danger'],
  };
}

const FILTERS = [
  BackupDifferenceChange.ADDED,
  BackupDifferenceChange.CHANGED,
  BackupDifferenceChange.REMOVED,
] as const;

/**
 * A comparison's differences one keyset page at a time, each key with its value before and after
 * as a JSON diff. The trail of page tokens stays in the component (it lives in a dialog).
 */
export function DifferencesList({
  operationId,
  labels = DEFAULT_CHANGE_LABELS,
}: {
  operationId: string;
  labels?: ChangeLabels;
}) {
  const CHANGES = changesOf(labels);
  const [tokens, setTokens] = useState<string[]>([]);
  const [only, setOnly] = useState<BackupDifferenceChange | undefined>(undefined);
  const pageToken = tokens.at(-1) ?? '';
  const page = useBackupDifferencesQuery(operationId, pageToken, only === undefined ? [] : [only]);
  const show = (change: BackupDifferenceChange | undefined) => {
    setOnly(change);
    setTokens([]);
  };
  const filter = (
    <fieldset className="bk-choice-row" aria-label="Show differences">
      {([undefined, ...FILTERS] as const).map((change) => (
        <label key={change ?? 'all'} className="bk-choice">
          <input
            type="radio"
            name={`differences-${operationId}`}
            checked={only === change}
            onChange={() => show(change)}
          />
          <span>{change === undefined ? 'All' : CHANGES[change][0]}</span>
        </label>
      ))}
    </fieldset>
  );
  const differences = page.data?.differences ?? [];
  const next = page.data?.nextPageToken ?? '';
  const withheld = page.data?.valuesWithheld ?? false;
  // Preview storage keeps only the first differences in key order (docs/security.md): say so, as
  // the list ends there while the counts above cover every key.
  const truncation = page.data?.truncated && (
    <p className="muted bk-small" data-testid="differences-truncated">
      Showing the first {formatCount(page.data.storedCount)} of {formatCount(page.data.totalCount)}{' '}
      differences (in key order): no more are stored; the counts above cover them all.
    </p>
  );
  const withheldNote = withheld && (
    <p className="muted bk-small" data-testid="differences-values-withheld">
      Values need the operator role: keys and changes are shown.
    </p>
  );

  if (page.error) {
    return (
      <ErrorBanner
        title="Could not load the differences"
        error={page.error}
        onRetry={() => void page.refetch()}
      />
    );
  }
  if (page.isPending) return <Spinner label="Loading differences…" />;
  if (differences.length === 0 && tokens.length === 0 && only === undefined && !truncation) {
    return <p className="muted">No key differs.</p>;
  }
  return (
    <section className="stack" aria-label="Differences">
      {filter}
      {truncation}
      {withheldNote}
      {differences.length === 0 && <p className="muted">None of this kind.</p>}
      <ol className="differences">
        {differences.map((d) => {
          const [label, tone] = CHANGES[d.change];
          return (
            <li key={d.key} className="differences__item" data-testid="difference">
              <div className="differences__head">
                <span className="mono differences__key">{d.key}</span>{' '}
                <Badge tone={tone}>{label}</Badge>
              </div>
              {!withheld && <JsonDiffView before={d.beforeJson} after={d.afterJson} />}
            </li>
          );
        })}
      </ol>
      {(tokens.length > 0 || next) && (
        <nav className="bk-pager" aria-label="Difference pages">
          <Button
            onClick={() => setTokens(tokens.slice(0, -1))}
            disabled={tokens.length === 0 || page.isFetching}
          >
            Previous differences
          </Button>
          <Button onClick={() => setTokens([...tokens, next])} disabled={!next || page.isFetching}>
            Next differences
          </Button>
        </nav>
      )}
    </section>
  );
}
