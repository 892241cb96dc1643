import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /health — not built yet. */
export function HealthPage() {
  return (
    <PlaceholderPage title="Health">
      Backup health: whether monitoring is available, the last report of each backup (healthy,
      degraded, corrupt, missing), periodic verification settings, and on-demand checks.
    </PlaceholderPage>
  );
}
