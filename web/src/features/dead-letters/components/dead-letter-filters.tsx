import { StoreSchemaDeadLetterReason } from '@store/contract';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { reasonLabel } from '../utils/dead-letter-reason';
import { NO_FILTER, isFiltered, type LetterFilter } from '../utils/dead-letter-filter';

const REASONS = [
  StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
  StoreSchemaDeadLetterReason.MIGRATION_FAILED,
  StoreSchemaDeadLetterReason.TRANSFORM_FAILED,
  StoreSchemaDeadLetterReason.OVER_QUOTA,
  StoreSchemaDeadLetterReason.CROSS_TENANT,
];

/** The Dead letters section's filter: reason, key prefix, set aside before (browser time). */
export function DeadLetterFilters({
  filter,
  onChange,
}: {
  filter: LetterFilter;
  onChange: (filter: LetterFilter) => void;
}) {
  return (
    <div className="schema-form-row" role="group" aria-label="Dead-letter filter">
      <Field label="Reason">
        {(control) => (
          <select
            {...control}
            className="input"
            value={filter.reason}
            onChange={(event) =>
              onChange({
                ...filter,
                reason: Number(event.target.value) as StoreSchemaDeadLetterReason,
              })
            }
          >
            <option value={StoreSchemaDeadLetterReason.UNSPECIFIED}>Any reason</option>
            {REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {reasonLabel(reason)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Key prefix">
        {(control) => (
          <input
            {...control}
            className="input"
            value={filter.keyPrefix}
            onChange={(event) => onChange({ ...filter, keyPrefix: event.target.value })}
          />
        )}
      </Field>
      <Field label="Set aside before">
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            className="input"
            value={filter.before}
            onChange={(event) => onChange({ ...filter, before: event.target.value })}
          />
        )}
      </Field>
      <Button disabled={!isFiltered(filter)} onClick={() => onChange(NO_FILTER)}>
        Clear filter
      </Button>
    </div>
  );
}
