import { compileSchema } from '../core/index.js';
import type { RunControl } from '../records.js';
import { checkTree, type SchemaEngine } from '../schema-engine.js';
import { liveEntryCount, treePages } from '../tree-pages.js';
import { DryRunAccumulator, type DryRunTally } from './dry-run-accumulator.js';

/** A dry-run's report: the tally plus what it was evaluated for. */
export interface PolicyDryRunReport extends DryRunTally {
  treeId: string;
  schemaHash: string;
  evaluatedAt: number;
}

/**
 * Evaluates a draft schema against every live entry of a tree, page by page in key order (the
 * compliance scan's paging), as an ENFORCE policy would judge a write of each value. Changes
 * nothing. The schema compiles through the engine's own compiler, so the verdicts are the write
 * guard's.
 */
export async function dryRunPolicy(
  engine: SchemaEngine,
  target: { tenant: string; treeName: string },
  draft: { jsonSchema: string; sampleLimit: number },
  control: RunControl<unknown>,
): Promise<PolicyDryRunReport> {
  const { tenant, treeName } = target;
  checkTree(tenant, treeName);
  const validator = compileSchema(draft.jsonSchema, 'json_schema');
  const total = await liveEntryCount(engine.storage, tenant, treeName);
  const accumulator = new DryRunAccumulator(draft.sampleLimit);
  control.progress(0, total);
  for await (const page of treePages(engine.storage, tenant, treeName, engine.pageSize)) {
    control.throwIfCancelled();
    for (const entry of page.entries) {
      let value: unknown;
      try {
        value = JSON.parse(entry.valueJson ?? 'null');
      } catch (error) {
        accumulator.addUnparseable(entry.key, (error as Error).message);
        continue;
      }
      accumulator.add(entry.key, validator.explain(value));
    }
    const done = accumulator.scanned;
    // The tree may grow while the run reads it: never report more done than total.
    control.progress(done, Math.max(total, done));
  }
  control.throwIfCancelled();
  return {
    treeId: treeName,
    schemaHash: validator.schemaHash,
    evaluatedAt: engine.clock(),
    ...accumulator.report(),
  };
}
