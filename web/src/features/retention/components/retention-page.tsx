import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListPicker } from '../../../components/ui/list-picker';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { sortedTreeIds, useListTreesQuery } from '../../../lib/trees/use-list-trees-query';
import { RetentionSection } from './retention-section';

/**
 * /retention?tree=…&prefix=… — a scope's retention rules with a live preview of what they would
 * delete and why the rest stays, and the apply of that preview.
 */
export function RetentionPage() {
  const tenant = useActiveTenant();
  const [params, setParams] = useSearchParams();
  const treeId = params.get('tree') ?? '';
  const keyPrefix = params.get('prefix') ?? '';
  const trees = useListTreesQuery({ select: sortedTreeIds });
  const scopeLabel = keyPrefix ? `${treeId} under "${keyPrefix}"` : treeId;

  return (
    <>
      <PageHeader
        title="Retention"
        description={
          <>
            Which backups of a scope to keep in tenant <strong>{tenant}</strong>: see what the rules
            would delete before saving them, then apply exactly that preview.
          </>
        }
        actions={
          <>
            {treeId !== '' && (
              <Link className="btn btn--secondary" to={paths.scheduleScope(treeId, keyPrefix)}>
                Schedules of this scope
              </Link>
            )}
            <Link className="btn btn--secondary" to={paths.schedulesOverview}>
              All schedules
            </Link>
          </>
        }
      />
      <ListPicker
        label="Tree"
        noun={{ one: 'tree', many: 'trees' }}
        value={treeId}
        onChange={(next) => setParams({ tree: next }, { replace: true })}
        options={trees.data?.map((name) => ({ value: name, label: name }))}
        isPending={trees.isPending}
        error={trees.error}
        onRetry={() => void trees.refetch()}
      />
      {treeId === '' ? (
        <EmptyState title="Choose a tree">
          Its retention rules and what they would delete appear here.
        </EmptyState>
      ) : (
        <RetentionSection
          key={`${treeId}\u0000${keyPrefix}`}
          scope={{ treeId, keyPrefix }}
          scopeLabel={scopeLabel}
        />
      )}
    </>
  );
}
