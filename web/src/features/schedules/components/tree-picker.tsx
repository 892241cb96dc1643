import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { useTreeNamesQuery } from '../hooks/use-tree-names-query';

export interface TreePickerProps {
  value: string;
  onChange: (treeId: string) => void;
}

/** A select of the tenant's trees; a tree named in the URL but not listed stays selectable. */
export function TreePicker({ value, onChange }: TreePickerProps) {
  const trees = useTreeNamesQuery();
  const names = trees.data ?? [];
  const options = value !== '' && !names.includes(value) ? [value, ...names] : names;
  return (
    <div className="filters">
      <Field
        label="Tree"
        hint={trees.isPending ? 'Loading trees…' : names.length === 0 ? 'No trees yet.' : undefined}
      >
        {(control) => (
          <select
            {...control}
            className="input"
            value={value}
            onChange={(event) => onChange(event.target.value)}
          >
            <option value="">Choose a tree…</option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {trees.error && (
        <ErrorBanner
          title="Could not list trees"
          error={trees.error}
          onRetry={() => void trees.refetch()}
        />
      )}
    </div>
  );
}
