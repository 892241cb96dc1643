import type { ReactNode } from 'react';

/**
 * A section another feature adds to the schema page of a tree (the dead letters' two): features
 * do not import each other, so the route in app/ hands them to the page.
 */
export interface SchemaPageSection {
  /** Its anchor is `#schema-<id>`, listed in the page's table of contents. */
  id: string;
  title: string;
  render: (treeId: string) => ReactNode;
}

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
