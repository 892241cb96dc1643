import type { Storage } from '../../storage/database.js';
import { applyEntryChanges, type EntryChange } from '../../storage/schema/schema-entry-store.js';
import { putReportRow } from '../../storage/schema/schema-store.js';
import type { StoredEntry } from '../../storage/data/tree-db.js';
import { canonicalJson } from '../data/canonical-json.js';
import { failedPrecondition, isStoreError } from '../errors.js';
import type { FailedStep } from './core/index.js';
import type { DeadLetterReason, RemediationReport, RunControl } from './records.js';
import type { PageObserver } from './schema-engine.js';
import { liveEntryCount, treePages } from './tree-pages.js';

/** What a rewrite does with one live entry. */
export type EntryDecision =
  | { kind: 'keep' }
  | { kind: 'write'; value: unknown; schemaVersion: number }
  | {
      kind: 'dead_letter';
      reason: DeadLetterReason;
      errors: string[];
      schemaVersion: number;
      /** A migration's failing step (toVersion absent: no step leaves fromVersion). */
      failedStep?: FailedStep | undefined;
    };

interface Counts {
  scanned: number;
  alreadyCompliant: number;
  transformed: number;
  deadLettered: number;
  failed: number;
}

/** Where a rewrite stopped: resumed runs continue after `afterKey` with the counts so far. */
export interface RewriteCheckpoint {
  afterKey?: string;
  counts: Counts;
  startedAt: number;
  fromVersion: number;
  toVersion: number;
}

export interface RewriteDeps {
  storage: Storage;
  clock: () => number;
  pageSize: number;
  onPage?: PageObserver | undefined;
}

export interface RewriteJob {
  tenant: string;
  treeName: string;
  /** The operation kind the report is filed under (REMEDIATION, MIGRATION, …). */
  kind: string;
  fromVersion: number;
  toVersion: number;
  /** What to do with each entry of a page, in order (one validation round trip per page). */
  decide(entries: readonly StoredEntry[]): EntryDecision[] | Promise<EntryDecision[]>;
  /** Runs once every page is done, before the report says SUCCEEDED. */
  finish(): Promise<void>;
}

const REPORT_INTERVAL_MS = 1000;
const ZERO: Counts = {
  scanned: 0,
  alreadyCompliant: 0,
  transformed: 0,
  deadLettered: 0,
  failed: 0,
};

/**
 * Moves every live entry of a tree through `decide`, page by page, writing each page's changes
 * in one transaction (so a cancel between pages leaves every entry either untouched or done).
 * Keeps the tree's latest report current, checkpoints after each page, and returns the report.
 */
export async function rewriteTree(
  deps: RewriteDeps,
  job: RewriteJob,
  control: RunControl<RewriteCheckpoint>,
): Promise<RemediationReport> {
  const resumed = control.checkpointValue;
  const counts: Counts = { ...(resumed?.counts ?? ZERO) };
  const startedAt = resumed?.startedAt ?? deps.clock();
  const report = (state: RemediationReport['state'], finishedAt: number | null) => ({
    treeId: job.treeName,
    state,
    ...counts,
    fromVersion: job.fromVersion,
    toVersion: job.toVersion,
    startedAt,
    finishedAt,
    operationId: control.operationId,
  });
  const save = (value: RemediationReport) =>
    putReportRow(deps.storage, job.tenant, job.treeName, { ...value, kind: job.kind });

  await save(report('RUNNING', null));
  let savedAt = deps.clock();
  const total = await liveEntryCount(deps.storage, job.tenant, job.treeName);
  try {
    const pages = treePages(
      deps.storage,
      job.tenant,
      job.treeName,
      deps.pageSize,
      resumed?.afterKey,
    );
    for await (const page of pages) {
      control.throwIfCancelled();
      const decisions = await job.decide(page.entries);
      const changes = page.entries.flatMap((entry, index) => {
        counts.scanned += 1;
        const decision = decisions[index] ?? { kind: 'keep' };
        if (decision.kind === 'keep') counts.alreadyCompliant += 1;
        return changeFor(job, entry, decision, control.operationId, deps.clock());
      });
      if (changes.length > 0) {
        const outcome = await applyEntryChanges(
          deps.storage,
          {
            tenant: job.tenant,
            treeName: job.treeName,
            physicalTreeId: page.physicalTreeId,
            now: deps.clock(),
          },
          changes,
        );
        if (outcome.status === 'locked') {
          throw failedPrecondition(
            `tree '${job.treeName}' is write-locked by operation ${outcome.lockedBy} (a restore)`,
          );
        }
        if (outcome.status === 'moved') {
          throw failedPrecondition(`tree '${job.treeName}' was replaced (restored) during the run`);
        }
        for (const change of changes) {
          if (!outcome.applied.has(change.key)) continue;
          if (change.kind === 'write') counts.transformed += 1;
          else counts.deadLettered += 1;
        }
        // Written after the read by someone else: left as that writer stored it.
        counts.failed += outcome.conflicts.length;
      }
      await control.checkpoint({
        afterKey: page.lastKey,
        counts: { ...counts },
        startedAt,
        fromVersion: job.fromVersion,
        toVersion: job.toVersion,
      });
      control.progress(counts.scanned, Math.max(total, counts.scanned));
      await deps.onPage?.({ tenant: job.tenant, treeName: job.treeName, scanned: counts.scanned });
      // The running report is refreshed about once a second, not once per page.
      if (deps.clock() - savedAt >= REPORT_INTERVAL_MS) {
        savedAt = deps.clock();
        await save(report('RUNNING', null));
      }
    }
    control.throwIfCancelled();
    await job.finish();
    const done = report('SUCCEEDED', deps.clock());
    await save(done);
    return done;
  } catch (error) {
    const cause = control.signal?.aborted ? (control.signal.reason as unknown) : error;
    const code = isStoreError(cause) ? cause.code : 'internal';
    // Shutdown and a lost lease hand the run to a resumed attempt: the report stays RUNNING.
    if (code !== 'unavailable' && code !== 'aborted') {
      await save(report(code === 'cancelled' ? 'CANCELLED' : 'FAILED', deps.clock()));
    }
    throw error;
  }
}

function changeFor(
  job: RewriteJob,
  entry: StoredEntry,
  decision: EntryDecision,
  operationId: string | null,
  now: number,
): EntryChange[] {
  if (decision.kind === 'keep') return [];
  if (decision.kind === 'write') {
    try {
      return [
        {
          kind: 'write',
          key: entry.key,
          expectedSequence: entry.sequence,
          valueJson: canonicalJson(decision.value),
          schemaVersion: decision.schemaVersion,
        },
      ];
    } catch (error) {
      const unstorable: EntryDecision = {
        kind: 'dead_letter',
        reason: 'TRANSFORM_FAILED',
        errors: [`the result is not storable JSON: ${(error as Error).message}`],
        schemaVersion: entry.schemaVersion,
      };
      return changeFor(job, entry, unstorable, operationId, now);
    }
  }
  return [
    {
      kind: 'dead_letter',
      key: entry.key,
      expectedSequence: entry.sequence,
      letter: {
        tenant: job.tenant,
        treeName: job.treeName,
        key: entry.key,
        valueJson: entry.valueJson ?? 'null',
        reason: decision.reason,
        errors: decision.errors,
        sourceOperationId: operationId,
        schemaVersion: decision.schemaVersion,
        deadLetteredAt: now,
      },
    },
  ];
}
