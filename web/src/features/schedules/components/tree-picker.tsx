import { ListPicker } from '../../../components/ui/list-picker';
import { sortedTreeIds, useListTreesQuery } from '../../../lib/trees/use-list-trees-query';

export interface TreePickerProps {
  value: string;
  onChange: (treeId: string) => void;
}

/** A select of the tenant's trees; a tree named in the URL but not listed stays selectable. */
export function TreePicker({ value, onChange }: TreePickerProps) {
  const trees = useListTreesQuery({ select: sortedTreeIds });
  return (
    <ListPicker
      label="Tree"
      noun={{ one: 'tree', many: 'trees' }}
      value={value}
      onChange={onChange}
      options={trees.data?.map((name) => ({ value: name, label: name }))}
      isPending={trees.isPending}
      error={trees.error}
      onRetry={() => void trees.refetch()}
    />
  );
}
