import { createHash } from 'node:crypto';
import type { ScopeKey } from '../../../storage/backup/backup-scope-store.js';
import type { RetentionCatalog } from './retention-catalog.js';
import type { RetentionRules } from './retention-rules.js';

const bytesOf = (a: Float64Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * sha256 of what a scope's plan depends on: its key, its rules and every backup's id, time, base,
 * set and protection, in the catalog's order, the damage checks found (which backup, what and
 * since when) and which backup is the newest a drill proved restorable: a check that finds a
 * backup damaged, or a drill that proves a newer one, changes the plan, so a preview taken before
 * it is stale.
 */
export function catalogFingerprint(
  scope: Pick<ScopeKey, 'treeName' | 'keyPrefix'>,
  rules: RetentionRules,
  catalog: RetentionCatalog,
): string {
  // Column by column, in the catalog's fixed order: a few long updates instead of a formatted
  // line per backup. Ids hold no comma or newline (safe segments), and every column has one
  // entry per backup, so the text cannot be read two ways. A base in the catalog is its
  // position (the same as its id, in a tenth of the bytes); a base outside it, its id.
  const outsideBases: string[] = [];
  catalog.base.forEach((b, k) => {
    if (b < 0 && catalog.baseIds[k]) outsideBases.push(`${k}:${catalog.baseIds[k]}`);
  });
  const protectedPositions = [...catalog.protections.keys()].sort((a, b) => a - b);
  const damage = [...catalog.damaged.entries()]
    .sort(([a], [b]) => a - b)
    .map(([k, d]) => `${k}:${d.status}:${d.since}`);
  const hash = createHash('sha256')
    .update(JSON.stringify([scope.treeName, scope.keyPrefix, rules, catalog.ids.length]))
    .update(`\n${catalog.ids.join(',')}\n`)
    .update(bytesOf(catalog.createdAt))
    .update(bytesOf(catalog.base))
    .update(`\n${outsideBases.join(',')}\n${catalog.setIds.join(',')}`)
    .update(`\n${protectedPositions.join(',')}`);
  // Only when there is damage: a catalog without any keeps the fingerprint it had before damage
  // counted (a preview taken by the previous version of a replica still applies).
  if (damage.length > 0) hash.update(`\n!damage\n${damage.join(',')}`);
  // The same for proof: a drill that proves a newer backup moves what the plan keeps.
  if (catalog.proven >= 0) hash.update(`\n!proven\n${catalog.proven}`);
  return hash.digest('hex');
}
