import {
  getDeadLetterRecord,
  listDeadLetterRecords,
  markReplayRefused,
  writeReplayedLetter,
  type DeadLetterRecordRow,
  type DeadLetterSelection,
} from '../../../storage/schema/dead-letter-replay-store.js';
import { canonicaliseJsonText, MAX_JSON_DEPTH } from '../../data/canonical-json.js';
import { DEFAULT_MAX_VALUE_BYTES } from '../../data/tree-data-engine.js';
import { StoreError, failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import { formatViolation } from '../core/index.js';
import type { RunControl } from '../records.js';
import { checkTree, type SchemaEngine } from '../schema-engine.js';

/** Letters listed in a bulk replay's result, per outcome. */
export const MAX_REPLAY_ITEMS = 500;

/** One replayed letter in a bulk report. */
export interface ReplayItem {
  deadLetterId: number;
  key: string;
  outcome: 'WRITTEN' | 'REFUSED';
  sequence: number;
  errors: string[];
}

export interface DeadLetterReplayReport {
  treeId: string;
  considered: number;
  written: number;
  refused: number;
  items: ReplayItem[];
  itemsTruncated: boolean;
}

/** Where an interrupted bulk replay goes on: after this letter id, with the tally so far. */
export interface ReplayCheckpoint {
  afterId: number;
  report: DeadLetterReplayReport;
}

/**
 * Replays dead letters through the schema engine's write guard (issue 16): a value the guard
 * accepts is written with a new sequence and its letter marked WRITTEN (kept, with who and when);
 * a refused one stays pending with the new reasons. No new dead letter is made by a replay.
 */
export class DeadLetterReplayer {
  constructor(
    private readonly engine: SchemaEngine,
    private readonly maxValueBytes = DEFAULT_MAX_VALUE_BYTES,
  ) {}

  /** Replays one letter, with an edited value when given; returns the letter as it is now. */
  async replayOne(
    target: { tenant: string; treeName: string; replayedBy: string },
    deadLetterId: number,
    valueJson?: string,
  ): Promise<DeadLetterRecordRow> {
    checkTree(target.tenant, target.treeName);
    checkId(deadLetterId);
    const letter = await getDeadLetterRecord(this.engine.storage, target, deadLetterId);
    if (!letter) {
      throw notFound(`tree '${target.treeName}' has no dead letter ${deadLetterId}`);
    }
    if (letter.replayOutcome === 'WRITTEN') {
      throw failedPrecondition(
        `dead letter ${deadLetterId} was already replayed by ${letter.replayedBy ?? 'someone'}`,
      );
    }
    if (letter.discardedAt !== null) {
      throw failedPrecondition(
        `dead letter ${deadLetterId} was discarded by ${letter.discardedBy ?? 'someone'}`,
      );
    }
    const value = this.parse(valueJson ?? letter.valueJson);
    await this.replay(target, letter, value);
    const now = await getDeadLetterRecord(this.engine.storage, target, deadLetterId);
    if (!now) throw notFound(`dead letter ${deadLetterId} disappeared`);
    return now;
  }

  /**
   * Replays every pending letter of a tree that the selection takes, in arrival order (so of two
   * letters for one key the later one is written last), page by page, checkpointing after each.
   */
  async replayAll(
    target: { tenant: string; treeName: string },
    selection: DeadLetterSelection,
    control: RunControl<ReplayCheckpoint>,
  ): Promise<DeadLetterReplayReport> {
    checkTree(target.tenant, target.treeName);
    const start = control.checkpointValue;
    const report: DeadLetterReplayReport = start?.report ?? {
      treeId: target.treeName,
      considered: 0,
      written: 0,
      refused: 0,
      items: [],
      itemsTruncated: false,
    };
    let afterId = start?.afterId;
    const who = { ...target, replayedBy: control.createdBy };
    for (;;) {
      control.throwIfCancelled();
      const page = await listDeadLetterRecords(
        this.engine.storage,
        target,
        { ...selection, includeReplayed: false },
        { afterId, limit: this.engine.pageSize },
      );
      for (const letter of page) {
        let item: ReplayItem;
        try {
          item = await this.replay(who, letter, this.parse(letter.valueJson));
        } catch (error) {
          // A stored letter too large or too deep for the tree now: refused, with the reason.
          if (!(error instanceof StoreError) || error.code === 'failed_precondition') throw error;
          await markReplayRefused(this.engine.storage, {
            ...who,
            id: letter.id,
            editedValueJson: null,
            errors: [error.message],
            now: this.engine.clock(),
          });
          item = { ...itemOf(letter), outcome: 'REFUSED', errors: [error.message] };
        }
        tally(report, item);
      }
      const last = page.at(-1);
      if (!last) break;
      afterId = last.id;
      await control.checkpoint({ afterId, report });
      control.progress(report.considered, 0);
      if (page.length < this.engine.pageSize) break;
    }
    return report;
  }

  private async replay(
    who: { tenant: string; treeName: string; replayedBy: string },
    letter: DeadLetterRecordRow,
    value: { value: unknown; canonical: string },
  ): Promise<ReplayItem> {
    const edited = value.canonical === letter.valueJson ? null : value.canonical;
    const verdict = await this.engine.judgeWrite(who.tenant, who.treeName, value.value);
    const now = this.engine.clock();
    if (!verdict.apply) {
      const errors = verdict.violations.map(formatViolation);
      await markReplayRefused(this.engine.storage, {
        ...who,
        id: letter.id,
        editedValueJson: edited,
        errors,
        now,
      });
      return { ...itemOf(letter), outcome: 'REFUSED', errors };
    }
    const outcome = await writeReplayedLetter(this.engine.storage, {
      ...who,
      id: letter.id,
      key: letter.key,
      valueJson: value.canonical,
      editedValueJson: edited,
      schemaVersion: verdict.schemaVersion,
      now,
    });
    if (outcome.status === 'locked') {
      throw failedPrecondition(
        `tree '${who.treeName}' is write-locked by operation ${outcome.lockedBy} (a restore); replay refused`,
      );
    }
    if (outcome.status === 'not_pending') {
      throw failedPrecondition(
        `dead letter ${letter.id} was replayed or discarded by another call`,
      );
    }
    return { ...itemOf(letter), outcome: 'WRITTEN', sequence: outcome.sequence };
  }

  private parse(text: string): { value: unknown; canonical: string } {
    if (typeof text !== 'string') throw invalidArgument('value_json', 'JSON text is required');
    let parsed: { value: unknown; canonical: string };
    try {
      parsed = canonicaliseJsonText(text);
    } catch (error) {
      const message =
        error instanceof RangeError
          ? `nested deeper than ${MAX_JSON_DEPTH} levels`
          : (error as Error).message;
      throw invalidArgument('value_json', message);
    }
    const bytes = Buffer.byteLength(parsed.canonical, 'utf8');
    if (bytes > this.maxValueBytes) {
      throw new StoreError(
        'resource_exhausted',
        `value_json: ${bytes} bytes is over the ${this.maxValueBytes}-byte limit`,
        'value_json',
      );
    }
    return parsed;
  }
}

function itemOf(letter: DeadLetterRecordRow): ReplayItem {
  return { deadLetterId: letter.id, key: letter.key, outcome: 'REFUSED', sequence: 0, errors: [] };
}

function tally(report: DeadLetterReplayReport, item: ReplayItem): void {
  report.considered += 1;
  if (item.outcome === 'WRITTEN') report.written += 1;
  else report.refused += 1;
  const listed = report.items.filter((i) => i.outcome === item.outcome).length;
  if (listed < MAX_REPLAY_ITEMS) report.items.push(item);
  else report.itemsTruncated = true;
}

/** Dead-letter ids are positive integers within JavaScript's safe range. */
export function checkId(id: number, field = 'dead_letter_id'): void {
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidArgument(field, 'must be a positive id');
}
