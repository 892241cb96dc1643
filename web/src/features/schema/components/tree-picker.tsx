import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useListTreesQuery } from '../../../lib/trees/use-list-trees-query';
import { counted } from '../../../lib/words/counted';

/**
 * Picks the tree the page governs. The list comes from ListTrees (trees that hold entries); a
 * policy can be set before the first write, so any tree name can also be typed in.
 */
export function TreePicker({ treeId }: { treeId: string | undefined }) {
  const navigate = useNavigate();
  const trees = useListTreesQuery();
  const [typed, setTyped] = useState('');
  const listed = trees.data?.trees ?? [];
  const open = (name: string) => void navigate(paths.schemaTree(name));

  return (
    <div className="schema-picker">
      <Field label="Tree">
        {(control) => (
          <select
            {...control}
            className="input"
            value={treeId ?? ''}
            disabled={trees.isPending}
            onChange={(event) => {
              if (event.target.value) open(event.target.value);
            }}
          >
            <option value="">{trees.isPending ? 'Loading trees…' : 'Choose a tree'}</option>
            {treeId && !listed.some((t) => t.treeId === treeId) && (
              <option value={treeId}>{treeId} (no entries yet)</option>
            )}
            {listed.map((tree) => (
              <option key={tree.treeId} value={tree.treeId}>
                {tree.treeId} — {counted(tree.entryCount, 'entry', 'entries')}
                {tree.hasPolicy ? ', policy' : ''}
                {tree.deadLetterCount > 0n
                  ? `, ${formatCount(tree.deadLetterCount)} dead letters`
                  : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <form
        className="schema-picker__other"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) open(typed.trim());
        }}
      >
        <Field label="Or another tree by name">
          {(control) => (
            <input
              {...control}
              className="input"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" disabled={!typed.trim()}>
          Open
        </Button>
      </form>
      {trees.isError && (
        <ErrorBanner
          title="Could not list trees"
          error={trees.error}
          onRetry={() => void trees.refetch()}
        />
      )}
    </div>
  );
}
