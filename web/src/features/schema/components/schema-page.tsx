import { Fragment } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import type { SchemaPageSection } from '../../../components/schema/schema-section';
import { useSchemaCapabilities } from '../../../lib/capabilities/use-schema-capabilities';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useScrollToHash } from '../../../lib/use-scroll-to-hash';
import { ComplianceSection } from './compliance-section';
import { PolicySection } from './policy-section';
import { RemediationSection } from './remediation-section';
import { TreePicker } from './tree-picker';
import { VersionSection } from './version-section';

const SECTIONS = [
  ['policy', 'Policy'],
  ['versions', 'Versions and migrations'],
  ['remediation', 'Remediation'],
  ['compliance', 'Compliance scans'],
] as const;

/**
 * /schema and /schema/:treeId — schema governance of one tree. `sections` follow the page's own
 * (the dead letters' sections, composed by the route).
 */
export function SchemaPage({ sections = [] }: { sections?: readonly SchemaPageSection[] }) {
  const { treeId } = useParams();
  return (
    <>
      <PageHeader
        title={treeId ? `Schema of ${treeId}` : 'Schema'}
        description="Per tree: the JSON Schema policy, versions and migrations, remediation, compliance scans and dead letters."
        actions={treeId && <Link to={paths.tree(treeId)}>Browse the entries of {treeId}</Link>}
      />
      <TreePicker treeId={treeId} />
      {treeId ? (
        <TreeSchema key={treeId} treeId={treeId} sections={sections} />
      ) : (
        <EmptyState title="Choose a tree">Pick a tree above to govern its schema.</EmptyState>
      )}
    </>
  );
}

function TreeSchema({
  treeId,
  sections,
}: {
  treeId: string;
  sections: readonly SchemaPageSection[];
}) {
  const caps = useSchemaCapabilities(treeId);
  const tenant = useActiveTenant();
  const { hash } = useLocation();

  // Links from other pages name a section (#schema-dead-letters, the dashboard's dead-letter
  // link); a client-side navigation does not scroll to it by itself, and the sections above it
  // grow as they load.
  useScrollToHash(hash);
  return (
    <>
      <nav aria-label="Schema sections" className="schema-toc">
        <ul className="inline-list">
          {[...SECTIONS, ...sections.map(({ id, title }) => [id, title] as const)].map(
            ([id, title]) => (
              <li key={id}>
                <a href={`#schema-${id}`}>{title}</a>
              </li>
            ),
          )}
        </ul>
      </nav>
      {caps.error ? (
        <ErrorBanner
          title={`Permissions on ${treeId} in tenant ${tenant} could not be checked`}
          error={caps.error}
        />
      ) : null}
      <PolicySection treeId={treeId} caps={caps} />
      <VersionSection treeId={treeId} caps={caps} />
      <RemediationSection treeId={treeId} caps={caps} />
      <ComplianceSection treeId={treeId} caps={caps} />
      {sections.map(({ id, render }) => (
        <Fragment key={id}>{render(treeId)}</Fragment>
      ))}
    </>
  );
}
