import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /schema — not built yet. */
export function SchemaPage() {
  return (
    <PlaceholderPage title="Schema">
      Per tree: the JSON Schema policy and its mode, the version config and migrations, remediation,
      compliance scans and dead letters.
    </PlaceholderPage>
  );
}
