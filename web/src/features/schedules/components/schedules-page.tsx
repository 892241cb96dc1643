import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /schedules — not built yet. */
export function SchedulesPage() {
  return (
    <PlaceholderPage title="Schedules">
      Full and incremental schedules per tree with their effective intervals, last runs and outcomes
      (scope status); schedule and cancel.
    </PlaceholderPage>
  );
}
