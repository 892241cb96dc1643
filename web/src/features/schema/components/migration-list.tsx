import type { StoreSchemaMigrationStep } from '@store/contract';
import { describeOp } from '../utils/json-patch';

/** The migration chain as "from → to" with each step's JSON Patch ops. */
export function MigrationList({ steps }: { steps: readonly StoreSchemaMigrationStep[] }) {
  if (steps.length === 0) return <p className="muted">No migration steps.</p>;
  const ordered = [...steps].sort((a, b) => a.fromVersion - b.fromVersion);
  return (
    <ol className="plain-list schema-migrations" aria-label="Migration steps">
      {ordered.map((step) => {
        const ops = step.transform?.ops ?? [];
        return (
          <li key={step.fromVersion}>
            <strong>
              {step.fromVersion} → {step.toVersion}
            </strong>
            {ops.length === 0 ? (
              <span className="muted"> (version bump only)</span>
            ) : (
              <ul className="schema-ops">
                {ops.map((op, index) => (
                  <li key={index} className="mono">
                    {describeOp(op)}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
