import type { ReactNode } from 'react';
import { Button } from './button';

/** One control of a `form.filters` bar, labelled by wrapping it (pages.css: .filters__item). */
export function FilterField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="filters__item">
      <span>{label}</span>
      {children}
    </label>
  );
}

/** The bar's Apply (submits the form) and, while any filter is set, Clear filters. */
export function FilterActions({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <>
      <Button type="submit">Apply</Button>
      {filtered && (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </>
  );
}
