import type { KeywordViolation } from '../core/index.js';
import type { ValueVerdict } from '../validation/validation-pool.js';
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
  const { schemaHash } = await engine.validation.compile(tenant, draft.jsonSchema, 'json_schema');
  const total = await liveEntryCount(engine.storage, tenant, treeName);
  const accumulator = new DryRunAccumulator(draft.sampleLimit);
  control.progress(0, total);
  for await (const page of treePages(engine.storage, tenant, treeName, engine.pageSize)) {
    control.throwIfCancelled();
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const entry of page.entries) {
      try {
        values.push(JSON.parse(entry.valueJson ?? 'null'));
        keys.push(entry.key);
      } catch (error) {
        accumulator.addUnparseable(entry.key, (error as Error).message);
      }
    }
    // One round trip per page; a value over the validation budget fails with the budget named.
    const verdicts = await engine.validateMany({ tenant, jsonSchema: draft.jsonSchema }, values);
    verdicts.forEach((verdict, index) => {
      accumulator.add(keys[index]!, violationsOf(verdict));
    });
    const done = accumulator.scanned;
    // The tree may grow while the run reads it: never report more done than total.
    control.progress(done, Math.max(total, done));
  }
  control.throwIfCancelled();
  return {
    treeId: treeName,
    schemaHash,
    evaluatedAt: engine.clock(),
    ...accumulator.report(),
  };
}

function violationsOf(verdict: ValueVerdict): readonly KeywordViolation[] {
  if (verdict.kind === 'pass') return [];
  if (verdict.kind === 'fail') return verdict.violations;
  return [{ keyword: 'budget', path: '', message: verdict.reason }];
}
