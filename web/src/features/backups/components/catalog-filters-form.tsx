import { BackupKind } from '@store/contract';
import { useEffect, useState, type SubmitEvent } from 'react';
import { FilterActions, FilterField } from '../../../components/ui/filters';
import { EMPTY_FILTERS, isFiltered, type CatalogFilters } from '../utils/catalog-filters';

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
  // A tree named in the URL but not (or no longer) listed still shows as the selected option.
  const treeOptions =
    filters.treeId && !trees.includes(filters.treeId) ? [filters.treeId, ...trees] : trees;

  return (
    <form className="filters" role="search" aria-label="Filter backups" onSubmit={submit}>
      <FilterField label="Tree">
        <select
          className="input"
          value={filters.treeId}
          onChange={(e) => apply({ treeId: e.target.value })}
        >
          <option value="">Any tree</option>
          {treeOptions.map((tree) => (
            <option key={tree} value={tree}>
              {tree}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField label="Kind">
        <select
          className="input"
          value={filters.kind}
          onChange={(e) => apply({ kind: Number(e.target.value) as BackupKind })}
        >
          <option value={BackupKind.UNSPECIFIED}>Any kind</option>
          <option value={BackupKind.FULL}>Full</option>
          <option value={BackupKind.INCREMENTAL}>Incremental</option>
        </select>
      </FilterField>
      <FilterField label="Created from">
        <input
          className="input"
          type="date"
          value={filters.createdFrom}
          max={filters.createdTo || undefined}
          onChange={(e) => apply({ createdFrom: e.target.value })}
        />
      </FilterField>
      <FilterField label="Created to">
        <input
          className="input"
          type="date"
          value={filters.createdTo}
          min={filters.createdFrom || undefined}
          onChange={(e) => apply({ createdTo: e.target.value })}
        />
      </FilterField>
      <FilterField label="Name contains">
        <input
          className="input"
          type="search"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </FilterField>
      <FilterField label="Set id">
        <input
          className="input"
          type="search"
          value={setId}
          onChange={(e) => setSetId(e.target.value)}
        />
      </FilterField>
      <FilterActions filtered={isFiltered(filters)} onClear={() => onChange(EMPTY_FILTERS)} />
    </form>
  );
}
