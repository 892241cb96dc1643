import { StoreSchemaDeadLetterReason, StoreSchemaMode } from '@store/contract';
import type { MigrationPreviewReport } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { JsonDiffView } from '../../../components/ui/json-diff-view';
import { Table } from '../../../components/ui/table';
import { formatCount } from '../../../lib/format';

const REASONS: Partial<Record<StoreSchemaDeadLetterReason, string>> = {
  [StoreSchemaDeadLetterReason.MIGRATION_FAILED]: 'Migration failed',
  [StoreSchemaDeadLetterReason.TRANSFORM_FAILED]: 'Not storable',
};

/** "1 entry", "3 004 entries". */
export function entries(count: bigint): string {
  return `${formatCount(count)} ${count === 1n ? 'entry' : 'entries'}`;
}

/** One sentence of what the migration would do to the tree's entries. */
export function migrationPreviewSummary(report: MigrationPreviewReport): string {
  const parts = [
    `${entries(report.wouldChange)} would be migrated to version ${report.toVersion}`,
    `${formatCount(report.unchanged)} already there`,
    `${formatCount(report.wouldDeadLetter)} would be dead-lettered`,
  ];
  return `Of ${entries(report.scanned)} read: ${parts.join(', ')}.`;
}

/**
 * What a migration preview found: the totals, each step's counts with sample before/after
 * diffs, the entries the run would dead-letter, and the migrated values the policy fails.
 */
export function MigrationPreviewReportView({ report }: { report: MigrationPreviewReport }) {
  const policy = report.policy;
  const enforced = policy !== undefined && policy.mode !== StoreSchemaMode.AUDIT;
  return (
    <div className="stack">
      <p data-testid="migration-preview-summary">
        <strong>{migrationPreviewSummary(report)}</strong>
      </p>
      {policy && (
        <p data-testid="migration-preview-policy">
          {report.policyRefused === 0n ? (
            <>Every migrated value passes the policy in force (version {policy.version}).</>
          ) : enforced ? (
            <>
              <strong>{entries(report.policyRefused)}</strong> would fail the Enforce policy
              (version {policy.version}) once migrated: the write guard would dead-letter such a
              value (schema violation) when it is next written. The migration itself still writes
              them.
            </>
          ) : (
            <>
              <strong>{entries(report.policyRefused)}</strong> would fail the Audit policy (version{' '}
              {policy.version}) once migrated: compliance scans will report them.
            </>
          )}
        </p>
      )}
      <Table
        caption="Per step"
        columns={[
          {
            id: 'step',
            header: 'Step',
            cell: (s) => (
              <span className="mono">
                {s.fromVersion} → {s.toVersion}
              </span>
            ),
          },
          { id: 'entered', header: 'Entries', numeric: true, cell: (s) => formatCount(s.entered) },
          { id: 'changed', header: 'Changed', numeric: true, cell: (s) => formatCount(s.changed) },
          { id: 'failed', header: 'Failed', numeric: true, cell: (s) => formatCount(s.failed) },
        ]}
        rows={report.steps}
        rowKey={(s) => `${s.fromVersion}→${s.toVersion}`}
        empty="No step: the tree is already at the target version."
      />
      {report.steps
        .filter((step) => step.samples.length > 0)
        .map((step, index) => (
          <details key={`${step.fromVersion}→${step.toVersion}`} open={index === 0}>
            <summary>
              Step {step.fromVersion} → {step.toVersion}: sample changes ({step.samples.length} of{' '}
              {formatCount(step.changed)})
            </summary>
            <ul className="migration-preview__samples">
              {step.samples.map((sample) => (
                <li key={sample.key}>
                  <span className="mono">{sample.key}</span>
                  <JsonDiffView before={sample.beforeJson} after={sample.afterJson} />
                </li>
              ))}
            </ul>
          </details>
        ))}
      {report.failures.length > 0 && (
        <details open>
          <summary>
            Would be dead-lettered ({report.failures.length} of{' '}
            {formatCount(report.wouldDeadLetter)})
          </summary>
          <ul className="schema-errors" data-testid="migration-preview-failures">
            {report.failures.map((failure) => (
              <li key={failure.key}>
                <span className="mono">{failure.key}</span>: {REASONS[failure.reason] ?? 'Failed'}
                {failure.toVersion > 0 &&
                  ` at step ${failure.fromVersion} → ${failure.toVersion}`}: {failure.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {report.policySamples.length > 0 && (
        <details>
          <summary>
            Failing the policy once migrated ({report.policySamples.length} of{' '}
            {formatCount(report.policyRefused)})
          </summary>
          <ul className="schema-errors">
            {report.policySamples.map((sample) => (
              <li key={sample.key}>
                <span className="mono">{sample.key}</span>: {sample.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
