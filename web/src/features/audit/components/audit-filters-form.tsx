import { useEffect, useState, type SubmitEvent } from 'react';
import { FilterActions, FilterField } from '../../../components/ui/filters';
import { AUDIT_OUTCOMES, isFiltered, type AuditFilters } from '../api/audit-filters';

const EMPTY: AuditFilters = { subject: '', method: '', outcome: '', since: '', until: '' };

/** Subject, method, outcome and day filters. The outcome and days apply at once; text on submit. */
export function AuditFiltersForm({
  filters,
  onChange,
}: {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
}) {
  const [subject, setSubject] = useState(filters.subject);
  const [method, setMethod] = useState(filters.method);
  useEffect(() => setSubject(filters.subject), [filters.subject]);
  useEffect(() => setMethod(filters.method), [filters.method]);
  const apply = (next: Partial<AuditFilters>) => onChange({ ...filters, ...next });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    apply({ subject: subject.trim(), method: method.trim() });
  };

  return (
    <form className="filters" role="search" aria-label="Filter audit records" onSubmit={submit}>
      <FilterField label="Subject">
        <input
          className="input"
          type="search"
          value={subject}
          placeholder="token:… or a user"
          onChange={(event) => setSubject(event.target.value)}
        />
      </FilterField>
      <FilterField label="Method">
        <input
          className="input"
          type="search"
          value={method}
          placeholder="DeleteBackup"
          onChange={(event) => setMethod(event.target.value)}
        />
      </FilterField>
      <FilterField label="Outcome">
        <select
          className="input"
          value={filters.outcome}
          onChange={(event) => apply({ outcome: event.target.value })}
        >
          <option value="">Any outcome</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcome}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField label="From">
        <input
          className="input"
          type="date"
          value={filters.since}
          onChange={(event) => apply({ since: event.target.value })}
        />
      </FilterField>
      <FilterField label="To">
        <input
          className="input"
          type="date"
          value={filters.until}
          onChange={(event) => apply({ until: event.target.value })}
        />
      </FilterField>
      <FilterActions filtered={isFiltered(filters)} onClear={() => onChange(EMPTY)} />
    </form>
  );
}
