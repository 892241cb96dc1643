import {
  countPendingLetters,
  discardLetters,
  purgeDiscardedLetters,
  type PendingLetterSet,
} from '../../../storage/schema/dead-letter-discard-store.js';
import { getDeadLetterRecord } from '../../../storage/schema/dead-letter-replay-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import { momentWords } from '../../words.js';
import { checkTree, type SchemaEngine } from '../schema-engine.js';
import { checkId } from './dead-letter-replay.js';
import type { DeadLetterFilter } from './schema-insight.js';

/** The longest note a discard keeps. */
export const MAX_DISCARD_NOTE = 500;

/** Which pending letters of a tree a discard takes: one letter, a filtered set, or all. */
export type DiscardSelection =
  { kind: 'one'; id: number } | { kind: 'filter'; filter: DeadLetterFilter } | { kind: 'all' };

/** What the caller confirmed: the count and fingerprint CountPendingDeadLetters answered. */
export interface ConfirmedDiscard {
  expectedCount: number;
  expectedFingerprint?: string | undefined;
  note?: string | undefined;
}

/**
 * Discards dead letters: a discarded letter stops being pending (no listing, count or replay
 * takes it) and is kept, with who, when and the note, until the audit retention deletes it. The
 * caller confirms a count and its fingerprint first; a selection that takes another set of
 * letters now (even one of the same size) discards nothing.
 */
export class DeadLetterDiscarder {
  constructor(private readonly engine: SchemaEngine) {}

  /** The pending letters of the tree the selection takes: what a discard confirms. */
  async count(
    tenant: string,
    treeName: string,
    selection: DiscardSelection,
  ): Promise<PendingLetterSet> {
    checkTree(tenant, treeName);
    return countPendingLetters(
      this.engine.storage,
      { tenant, treeName },
      storageSelection(selection),
    );
  }

  /** Discards exactly the confirmed pending letters, or nothing (FailedPrecondition). */
  async discard(
    target: { tenant: string; treeName: string; discardedBy: string },
    selection: DiscardSelection,
    confirmed: ConfirmedDiscard,
  ): Promise<number> {
    checkTree(target.tenant, target.treeName);
    const { expectedCount, expectedFingerprint } = confirmed;
    if (!Number.isSafeInteger(expectedCount) || expectedCount < 0) {
      throw invalidArgument('expected_count', 'must be the count the caller confirmed (0 or more)');
    }
    // A count alone misses one letter arriving while another is resolved.
    if (!expectedFingerprint) {
      throw invalidArgument(
        'expected_fingerprint',
        'is required: send the fingerprint CountPendingDeadLetters returned with the count',
      );
    }
    const note = confirmed.note?.trim() ?? '';
    if ([...note].length > MAX_DISCARD_NOTE) {
      throw invalidArgument('note', `at most ${MAX_DISCARD_NOTE} characters`);
    }
    if (selection.kind === 'one') await this.checkDiscardable(target, selection.id);
    const outcome = await discardLetters(this.engine.storage, {
      ...target,
      selection: storageSelection(selection),
      expected: { count: expectedCount, fingerprint: expectedFingerprint },
      note: note === '' ? null : note,
      now: this.engine.clock(),
    });
    if (outcome.status === 'changed') {
      const now = outcome.sameCount
        ? `other pending dead letters of tree '${target.treeName}' than the ` +
          `${expectedCount} confirmed (as many, but letters arrived and others were resolved)`
        : `${outcome.count} pending dead letters of tree '${target.treeName}', not the ` +
          `${expectedCount} confirmed`;
      throw failedPrecondition(
        `the selection now takes ${now}; nothing was discarded (count again and confirm)`,
      );
    }
    return outcome.count;
  }

  /** Deletes letters discarded before `before` (called by the audit retention sweep). */
  purgeDiscarded(before: number): Promise<number> {
    return purgeDiscardedLetters(this.engine.storage, before);
  }

  /** One letter: NotFound when the tree has no such letter, FailedPrecondition once resolved. */
  private async checkDiscardable(
    target: { tenant: string; treeName: string },
    id: number,
  ): Promise<void> {
    checkId(id);
    const letter = await getDeadLetterRecord(this.engine.storage, target, id);
    if (!letter) throw notFound(`tree '${target.treeName}' has no dead letter ${id}`);
    if (letter.discardedAt !== null) {
      throw failedPrecondition(
        `dead letter ${id} was already discarded by ${letter.discardedBy ?? 'someone'}`,
      );
    }
    if (letter.replayOutcome === 'WRITTEN') {
      throw failedPrecondition(
        `dead letter ${id} was replayed by ${letter.replayedBy ?? 'someone'}; it is not pending`,
      );
    }
  }
}

/** The selection in words, for the audit record: "filter (reasons …; key prefix "a")". */
export function describeSelection(selection: DiscardSelection): string {
  if (selection.kind === 'all') return 'all pending';
  if (selection.kind === 'one') return `dead letter ${selection.id}`;
  const { keyPrefix, reasons = [], ids = [], before } = selection.filter;
  const parts = [
    reasons.length > 0 && `reasons ${reasons.join(', ')}`,
    keyPrefix && `key prefix ${JSON.stringify(keyPrefix)}`,
    before !== undefined && `dead-lettered before ${momentWords(before)}`,
    ids.length > 0 && `ids ${ids.join(', ')}`,
  ].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length === 0 ? 'filter (none: all pending)' : `filter (${parts.join('; ')})`;
}

function storageSelection(selection: DiscardSelection) {
  if (selection.kind === 'one') {
    checkId(selection.id);
    return { ids: [selection.id] };
  }
  return selection.kind === 'all' ? {} : selection.filter;
}
