import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /maintenance — not built yet. */
export function MaintenancePage() {
  return (
    <PlaceholderPage title="Maintenance">
      Catalog maintenance: rebuild the catalog from the manifests in the artifact store, and scrub
      it (verify rows against artifacts, optionally pruning orphans).
    </PlaceholderPage>
  );
}
