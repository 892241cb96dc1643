import { useEffect, useState, type SubmitEvent } from 'react';
import {
  FilterActions,
  FilterDate,
  FilterSearch,
  FilterSelect,
} from '../../../components/ui/filters';
import { statusCodeWords } from '../../../lib/words';
import { AUDIT_OUTCOMES, isFiltered, type AuditFilters } from '../utils/audit-filters';
import { auditMethodChoices } from '../utils/audit-methods';

const EMPTY: AuditFilters = { subject: '', method: '', outcome: '', since: '', until: '' };

const METHOD_CHOICES = auditMethodChoices();
const OUTCOME_CHOICES = AUDIT_OUTCOMES.map((outcome) => ({
  value: outcome,
  label: statusCodeWords(outcome).words,
}));

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
      <FilterSearch
        label="Subject"
        value={subject}
        placeholder="token:… or a user"
        onChange={setSubject}
      />
      {/* An action from a link that is not listed (a newer server) stays choosable. */}
      <FilterSelect
        label="Action"
        value={filters.method}
        anyLabel="Any action"
        choices={METHOD_CHOICES}
        keepUnlisted
        onChange={(method) => apply({ method })}
      />
      <FilterSelect
        label="Outcome"
        value={filters.outcome}
        anyLabel="Any outcome"
        choices={OUTCOME_CHOICES}
        onChange={(outcome) => apply({ outcome })}
      />
      <FilterDate label="From" value={filters.since} onChange={(since) => apply({ since })} />
      <FilterDate label="To" value={filters.until} onChange={(until) => apply({ until })} />
      <FilterActions filtered={isFiltered(filters)} onClear={() => onChange(EMPTY)} />
    </form>
  );
}
