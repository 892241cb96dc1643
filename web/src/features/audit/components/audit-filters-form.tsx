import { useEffect, useState, type SubmitEvent } from 'react';
import { FilterActions, FilterField } from '../../../components/ui/filters';
import { statusCodeWords } from '../../../lib/words';
import { AUDIT_OUTCOMES, isFiltered, type AuditFilters } from '../utils/audit-filters';
import { auditMethodChoices } from '../utils/audit-methods';

const EMPTY: AuditFilters = { subject: '', method: '', outcome: '', since: '', until: '' };

const METHOD_CHOICES = auditMethodChoices();

/**
 * Subject, action, outcome and day filters, in words (the server filters on the RPC name and the
 * code). The selects and days apply at once; the subject on submit.
 */
export function AuditFiltersForm({
  filters,
  onChange,
}: {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
}) {
  const [subject, setSubject] = useState(filters.subject);
  useEffect(() => setSubject(filters.subject), [filters.subject]);
  const apply = (next: Partial<AuditFilters>) => onChange({ ...filters, ...next });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    apply({ subject: subject.trim() });
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
      <FilterField label="Action">
        <select
          className="input"
          value={filters.method}
          onChange={(event) => apply({ method: event.target.value })}
        >
          <option value="">Any action</option>
          {/* A method from a link that is not listed (a newer server) stays choosable. */}
          {filters.method && !METHOD_CHOICES.some((c) => c.value === filters.method) && (
            <option value={filters.method}>{filters.method}</option>
          )}
          {METHOD_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
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
              {statusCodeWords(outcome).words}
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
