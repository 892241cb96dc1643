import type { ReactNode } from 'react';

/** One section of the schema page: a panel with an h2 that the in-page links jump to. */
export function SchemaSection({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `schema-${id}-title`;
  return (
    <section id={`schema-${id}`} className="panel schema-section" aria-labelledby={headingId}>
      <div className="schema-section__head">
        <h2 id={headingId} className="panel__title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
