import { useParams } from 'react-router';
import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /trees/:treeId — not built yet. */
export function TreeDetailPage() {
  const { treeId = '' } = useParams();
  return (
    <PlaceholderPage title={`Tree ${treeId}`}>
      The entries of this tree (paged, by key prefix), with put, get and delete, and links to its
      backups, schedules and schema policy.
    </PlaceholderPage>
  );
}
