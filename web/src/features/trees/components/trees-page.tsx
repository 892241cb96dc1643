import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /trees — not built yet. */
export function TreesPage() {
  return (
    <PlaceholderPage title="Trees">
      The tenant&apos;s trees with entry counts, policies and dead letters; browse, put and delete
      entries to check a restore.
    </PlaceholderPage>
  );
}
