import type { ReactNode } from 'react';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

/** A page that is routed but not built yet: says what will be there. */
export function PlaceholderPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title="Coming soon">{children}</EmptyState>
    </>
  );
}
