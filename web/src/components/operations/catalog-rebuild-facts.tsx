import type { StoreCatalogRebuildResult } from '@store/contract';
import { formatCount } from '../../lib/format';

/**
 * A catalog rebuild's result: manifests read and catalog rows re-created. The maintenance page
 * and an operation's detail page show the same facts in the same words.
 */
export function CatalogRebuildFacts({ result }: { result: StoreCatalogRebuildResult }) {
  return (
    <dl className="facts">
      <dt>Manifests scanned</dt>
      <dd>{formatCount(result.manifestsScanned)}</dd>
      <dt>Rows re-created</dt>
      <dd>{formatCount(result.rowsRestored)}</dd>
      <dt>Already in the catalog</dt>
      <dd>{formatCount(result.rowsAlreadyPresent)}</dd>
      <dt>Unreadable manifests</dt>
      <dd>
        {result.unreadableManifests.length === 0 ? (
          'None'
        ) : (
          <ul className="plain-list">
            {result.unreadableManifests.map((name) => (
              <li key={name} className="mono">
                {name}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
