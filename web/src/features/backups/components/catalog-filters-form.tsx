import { BackupKind } from '@store/contract';
import { useEffect, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { EMPTY_FILTERS, isFiltered, type CatalogFilters } from '../api/catalog-filters';

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
      <label className="filters__item">
        <span>Tree</span>
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
      </label>
      <label className="filters__item">
        <span>Kind</span>
        <select
          className="input"
          value={filters.kind}
          onChange={(e) => apply({ kind: Number(e.target.value) as BackupKind })}
        >
          <option value={BackupKind.UNSPECIFIED}>Any kind</option>
          <option value={BackupKind.FULL}>Full</option>
          <option value={BackupKind.INCREMENTAL}>Incremental</option>
        </select>
      </label>
      <label className="filters__item">
        <span>Created from</span>
        <input
          className="input"
          type="date"
          value={filters.createdFrom}
          max={filters.createdTo || undefined}
          onChange={(e) => apply({ createdFrom: e.target.value })}
        />
      </label>
      <label className="filters__item">
        <span>Created to</span>
        <input
          className="input"
          type="date"
          value={filters.createdTo}
          min={filters.createdFrom || undefined}
          onChange={(e) => apply({ createdTo: e.target.value })}
        />
      </label>
      <label className="filters__item">
        <span>Name contains</span>
        <input
          className="input"
          type="search"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label className="filters__item">
        <span>Set id</span>
        <input
          className="input"
          type="search"
          value={setId}
          onChange={(e) => setSetId(e.target.value)}
        />
      </label>
      <Button type="submit">Apply</Button>
      {isFiltered(filters) && (
        <Button variant="ghost" onClick={() => onChange(EMPTY_FILTERS)}>
          Clear filters
        </Button>
      )}
    </form>
  );
}
