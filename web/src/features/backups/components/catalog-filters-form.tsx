import { BackupKind } from '@store/contract';
import { useEffect, useState, type SubmitEvent } from 'react';
import {
  FilterActions,
  FilterDate,
  FilterSearch,
  FilterSelect,
} from '../../../components/ui/filters';
import { EMPTY_FILTERS, isFiltered, type CatalogFilters } from '../utils/catalog-filters';

const KIND_CHOICES = [
  { value: String(BackupKind.FULL), label: 'Full' },
  { value: String(BackupKind.INCREMENTAL), label: 'Incremental' },
];

export interface CatalogFiltersFormProps {
  filters: CatalogFilters;
  trees: readonly string[];
  onChange: (filters: CatalogFilters) => void;
}

/**
 * Tree, kind, set, name and creation-day filters. Selects and dates apply at once; the text
 * fields on submit. Any change starts again from the first page.
 */
export function CatalogFiltersForm({ filters, trees, onChange }: CatalogFiltersFormProps) {
  const [name, setName] = useState(filters.name);
  const [setId, setSetId] = useState(filters.setId);
  useEffect(() => setName(filters.name), [filters.name]);
  useEffect(() => setSetId(filters.setId), [filters.setId]);

  const apply = (next: Partial<CatalogFilters>) => onChange({ ...filters, ...next, page: '' });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    apply({ name: name.trim(), setId: setId.trim() });
  };

  return (
    <form className="filters" role="search" aria-label="Filter backups" onSubmit={submit}>
      {/* A tree named in the URL but not (or no longer) listed still shows as the selected option. */}
      <FilterSelect
        label="Tree"
        value={filters.treeId}
        anyLabel="Any tree"
        choices={trees.map((tree) => ({ value: tree, label: tree }))}
        keepUnlisted
        onChange={(treeId) => apply({ treeId })}
      />
      <FilterSelect
        label="Kind"
        value={String(filters.kind)}
        anyLabel="Any kind"
        anyValue={String(BackupKind.UNSPECIFIED)}
        choices={KIND_CHOICES}
        onChange={(kind) => apply({ kind: Number(kind) as BackupKind })}
      />
      <FilterDate
        label="Created from"
        value={filters.createdFrom}
        max={filters.createdTo || undefined}
        onChange={(createdFrom) => apply({ createdFrom })}
      />
      <FilterDate
        label="Created to"
        value={filters.createdTo}
        min={filters.createdFrom || undefined}
        onChange={(createdTo) => apply({ createdTo })}
      />
      <FilterSearch label="Name contains" value={name} onChange={setName} />
      <FilterSearch label="Set id" value={setId} onChange={setSetId} />
      <FilterActions filtered={isFiltered(filters)} onClear={() => onChange(EMPTY_FILTERS)} />
    </form>
  );
}
