import { Link } from 'react-router';
import { EmptyState } from '../components/ui/empty-state';
import { PageHeader } from '../components/ui/page-header';
import { paths } from '../lib/paths';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState
        title="There is no page at this address"
        action={<Link to={paths.dashboard}>Back to the dashboard</Link>}
      />
    </>
  );
}
