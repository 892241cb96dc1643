import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /backups — the catalog. Not built yet. */
export function BackupsPage() {
  return (
    <PlaceholderPage title="Backups">
      The backup catalog, paged, with filters in the URL (tree, kind, set, name, health, created
      between); start full, incremental and set backups; health freshness per row.
    </PlaceholderPage>
  );
}
