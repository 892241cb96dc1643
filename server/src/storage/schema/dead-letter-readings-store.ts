import type { Storage } from '../database.js';
import { pendingLetter } from './dead-letter-pending.js';

/** A tree's pending dead letters, as a metrics scrape reads them. */
export interface PendingDeadLettersReading {
  tenant: string;
  treeName: string;
  pending: number;
}

/**
 * Pending dead letters of the first `maxTrees` trees that have any (by tenant, then tree), and
 * how many trees have any: two GROUP BY aggregates, bounded however many trees there are.
 */
export async function readPendingDeadLetters(
  storage: Storage,
  maxTrees: number,
): Promise<{ trees: PendingDeadLettersReading[]; total: number }> {
  const treesWithLetters = storage.db
    .selectFrom('schema_dead_letters')
    .where(pendingLetter)
    .groupBy(['tenant', 'tree_name'])
    .select(['tenant', 'tree_name']);
  const totalRow = await storage.db
    .selectFrom(treesWithLetters.as('t'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const total = Number(totalRow?.n ?? 0);
  if (maxTrees <= 0 || total === 0) return { trees: [], total };
  const rows = await storage.db
    .selectFrom('schema_dead_letters')
    .where(pendingLetter)
    .groupBy(['tenant', 'tree_name'])
    .select((eb) => ['tenant', 'tree_name', eb.fn.countAll().as('pending')])
    .orderBy('tenant')
    .orderBy('tree_name')
    .limit(maxTrees)
    .execute();
  return {
    trees: rows.map((row) => ({
      tenant: row.tenant,
      treeName: row.tree_name,
      pending: Number(row.pending),
    })),
    total,
  };
}
