import { StoreOperationKind, StoreOperationState } from '@store/contract';
import { useEffect, useState, type SubmitEvent } from 'react';
import { FilterActions, FilterSearch, FilterSelect } from '../../../components/ui/filters';
import {
  kindLabel,
  OPERATION_KINDS,
  OPERATION_STATES,
  stateLabel,
} from '../../../lib/operations/operation-kinds';
import { PAGE_SIZE, type OperationFilters } from '../utils/operation-filters';

const ACTIVE = 'ACTIVE';
const STATE_CHOICES = [
  { value: ACTIVE, label: 'Queued or running' },
  ...OPERATION_STATES.map((state) => ({
    value: StoreOperationState[state],
    label: stateLabel(state),
  })),
];
const KIND_CHOICES = OPERATION_KINDS.map((kind) => ({
  value: StoreOperationKind[kind],
  label: kindLabel(kind),
}));

export interface OperationsFiltersProps {
  filters: OperationFilters;
  onChange: (filters: OperationFilters) => void;
}

/** State, kind and target filters. Selects apply at once; the target id applies on submit. */
export function OperationsFilters({ filters, onChange }: OperationsFiltersProps) {
  const [target, setTarget] = useState(filters.targetId);
  useEffect(() => setTarget(filters.targetId), [filters.targetId]);

  const stateValue =
    filters.states.length === 0
      ? ''
      : isActivePreset(filters.states)
        ? ACTIVE
        : (StoreOperationState[filters.states[0] ?? 0] ?? '');
  const kindValue =
    filters.kinds.length === 0 ? '' : (StoreOperationKind[filters.kinds[0] ?? 0] ?? '');
  // A filter change starts again from the first page.
  const apply = (next: Partial<OperationFilters>) =>
    onChange({ ...filters, ...next, limit: PAGE_SIZE });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    apply({ targetId: target.trim() });
  };

  return (
    <form className="filters" role="search" aria-label="Filter operations" onSubmit={submit}>
      <FilterSelect
        label="State"
        value={stateValue}
        anyLabel="Any state"
        choices={STATE_CHOICES}
        onChange={(state) => apply({ states: statesOf(state) })}
      />
      <FilterSelect
        label="Kind"
        value={kindValue}
        anyLabel="Any kind"
        choices={KIND_CHOICES}
        onChange={(value) => {
          const kind = StoreOperationKind[value as keyof typeof StoreOperationKind];
          apply({ kinds: kind === undefined ? [] : [kind] });
        }}
      />
      <FilterSearch
        label="Target id"
        value={target}
        placeholder="Tree or backup id"
        onChange={setTarget}
      />
      <FilterActions
        filtered={filters.states.length > 0 || filters.kinds.length > 0 || filters.targetId !== ''}
        onClear={() => apply({ states: [], kinds: [], targetId: '' })}
      />
    </form>
  );
}

function isActivePreset(states: readonly StoreOperationState[]): boolean {
  return (
    states.length === 2 &&
    states.includes(StoreOperationState.QUEUED) &&
    states.includes(StoreOperationState.RUNNING)
  );
}

function statesOf(value: string): StoreOperationState[] {
  if (value === ACTIVE) return [StoreOperationState.QUEUED, StoreOperationState.RUNNING];
  const state = StoreOperationState[value as keyof typeof StoreOperationState];
  return state === undefined ? [] : [state];
}
