import { StoreSchemaMode } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { describeError } from '../../../lib/errors';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useTreeSchemaSummary } from '../api/use-tree-schema-summary';

const isAudit = (mode: StoreSchemaMode) => mode === StoreSchemaMode.AUDIT;

/** What governs writes to the tree: its schema policy and how many writes were refused. */
export function TreeSchemaSummary({ treeId }: { treeId: string }) {
  const { policy, deadLetters } = useTreeSchemaSummary(treeId);
  const schemaLink = paths.schemaTree(treeId);
  const deadLettersLink = `${schemaLink}#schema-dead-letters`;
  return (
    <dl className="facts">
      <dt>Schema policy</dt>
      <dd>
        {policy.isPending && <span className="muted">Loading…</span>}
        {policy.error && <span className="muted">{describeError(policy.error)}</span>}
        {policy.data === null && <span className="muted">None: every JSON value is accepted</span>}
        {policy.data && (
          <>
            {/* UNSPECIFIED is treated as ENFORCE (the contract). */}
            <Badge tone={isAudit(policy.data.mode) ? 'info' : 'warning'}>
              {isAudit(policy.data.mode) ? 'AUDIT' : 'ENFORCE'}
            </Badge>{' '}
            version {policy.data.version}
            {isAudit(policy.data.mode)
              ? ': values that fail it are written and reported by compliance scans. '
              : ': values that fail it are dead-lettered, not written. '}
            <Link to={schemaLink}>Schema of this tree</Link>
          </>
        )}
      </dd>
      <dt>Dead letters</dt>
      <dd>
        {deadLetters.isPending && <span className="muted">Loading…</span>}
        {deadLetters.error && <span className="muted">{describeError(deadLetters.error)}</span>}
        {deadLetters.data !== undefined &&
          (Number(deadLetters.data) > 0 ? (
            <>
              <Badge tone="danger">{formatCount(deadLetters.data)}</Badge>{' '}
              <Link to={deadLettersLink}>Review dead letters</Link>
            </>
          ) : (
            <span className="muted">None</span>
          ))}
      </dd>
    </dl>
  );
}
