import { StoreSchemaMode } from '@store/contract';
import type { ValueVerdict } from '../../lib/schema/use-validate-value-query';

/** "policy v3 (Enforce)": which policy a verdict is against, in words. */
export function policyInWords(verdict: ValueVerdict): string {
  const policy = verdict.policy;
  const mode = policy?.mode === StoreSchemaMode.AUDIT ? 'Audit' : 'Enforce';
  return `policy v${policy?.version ?? 0} (${mode})`;
}

/**
 * A value's verdict against the tree's policy: passes, or its errors, saying whether the write
 * guard would refuse it (Enforce) or still write it (Audit).
 */
export function PolicyVerdict({
  data,
  listTestId,
}: {
  data: ValueVerdict;
  /** data-testid of the violations list, for tests. */
  listTestId?: string;
}) {
  if (!data.hasPolicy)
    return <p className="muted">The tree has no policy: any value is written.</p>;
  const against = policyInWords(data);
  if (data.violations.length === 0) {
    return <p className="schema-ok">Passes the {against}.</p>;
  }
  return (
    <div>
      <p className={data.accepted ? 'muted' : 'field__error'}>
        {data.violations.length} {data.violations.length === 1 ? 'error' : 'errors'} against the{' '}
        {against}
        {data.accepted
          ? ' (Audit: it would still be written)'
          : ' — the write guard would refuse it'}
        :
      </p>
      <ul className="schema-errors" data-testid={listTestId}>
        {data.violations.map((v, index) => (
          <li key={index}>
            <span className="mono">{v.instancePath || '(root)'}</span>: {v.message} ({v.keyword})
          </li>
        ))}
      </ul>
    </div>
  );
}
