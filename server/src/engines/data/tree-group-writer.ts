import type { Storage } from '../../storage/database.js';
import { noteEntriesWritten } from '../../storage/data/planner-statistics.js';
import { resolveTree, writeEntryGroup, type GroupEntryWrite } from '../../storage/data/tree-store.js';
import { failedPrecondition } from '../errors.js';
import type { Settled } from './group-commit-queue.js';
import { canonicalValue, type PreparedWrite } from './write-preparation.js';

/** A write the guard is asked about; `value` is the parsed JSON. */
export interface GuardedWrite {
  tenant: string;
  treeName: string;
  key: string;
  value: unknown;
}

/**
 * The guard's verdict. `value`, when given, is stored instead of the written one (a schema
 * engine migrating on write); it is canonicalised and size-checked like the original.
 */
export type WriteVerdict =
  | { apply: true; schemaVersion: number; value?: unknown }
  | { apply: false; reason: string };

/** Decides whether a write reaches the tree (the schema engine plugs in here). */
export type WriteGuard = (write: GuardedWrite) => Promise<WriteVerdict>;

/**
 * The guard for many writes to one tree at once, one verdict per write in order: it can read
 * the tree's policy once and store a group's dead letters in one transaction. A throw fails the
 * writes it was given.
 */
export type BatchWriteGuard = (
  tree: { tenant: string; treeName: string },
  writes: readonly { key: string; value: unknown }[],
) => Promise<WriteVerdict[]>;

/** One entry's outcome: its sequence, or dead-lettered (sequence 0) with the guard's reason. */
export interface PutEntryResult {
  sequence: number;
  deadLettered: boolean;
  deadLetterReason?: string;
}

/** One caller's writes to one tree: a PutEntry (one write) or a PutEntries batch. */
export interface TreeWriteRequest {
  tenant: string;
  treeName: string;
  writes: readonly PreparedWrite[];
}

/** What the writer reports about each commit (tests count them; metrics could). */
export interface GroupCommitInfo {
  tenant: string;
  treeName: string;
  requests: number;
  entries: number;
}

export interface TreeGroupWriterOptions {
  storage: Storage;
  clock: () => number;
  maxValueBytes: number;
  guard: BatchWriteGuard;
  onCommit?: ((info: GroupCommitInfo) => void) | undefined;
}

type Verdicts = Settled<WriteVerdict[]>;

/** A request the guard let through, with the entries to store and each write's result slot. */
interface Planned {
  index: number;
  stored: GroupEntryWrite[];
  /** Per write: a dead-letter result, or the position of its entry in `stored`. */
  slots: ({ deadLetter: PutEntryResult } | { stored: number })[];
}

/** The single-write guard as a batch guard (each write asked on its own). */
export function batchOf(guard: WriteGuard): BatchWriteGuard {
  return ({ tenant, treeName }, writes) =>
    Promise.all(writes.map(({ key, value }) => guard({ tenant, treeName, key, value })));
}

/**
 * Commits a group of requests to ONE tree (all of the same tenant and tree) in one
 * transaction, and settles each request on its own: a request whose guard call or replacement
 * value fails, fails alone; a storage failure of the shared transaction is retried per request,
 * so one bad request cannot fail its neighbours. Sequences follow the order of the requests and
 * of the writes within each.
 */
export async function commitTreeGroup(
  options: TreeGroupWriterOptions,
  requests: readonly TreeWriteRequest[],
  locked: () => void = () => undefined,
): Promise<Settled<PutEntryResult[]>[]> {
  const first = requests[0];
  if (!first) return [];
  const { tenant, treeName } = first;
  // Refuse early on a locked tree, before the guard can dead-letter anything; the write
  // transaction checks again.
  const tree = await resolveTree(options.storage, tenant, treeName);
  if (tree?.writeLockedBy) {
    const error = lockedError(treeName, tree.writeLockedBy);
    return requests.map(() => ({ ok: false, error }));
  }
  const verdicts = await guardRequests(options.guard, requests);
  const settled: Settled<PutEntryResult[]>[] = new Array(requests.length);
  const planned: Planned[] = [];
  requests.forEach((request, index) => {
    const verdict = verdicts[index];
    if (!verdict?.ok) {
      settled[index] = { ok: false, error: verdict?.error };
      return;
    }
    try {
      planned.push(plan(options, request, index, verdict.value));
    } catch (error) {
      settled[index] = { ok: false, error };
    }
  });
  const toStore = planned.filter((p) => p.stored.length > 0);
  for (const p of planned) if (p.stored.length === 0) settled[p.index] = results(p, 0);
  if (toStore.length > 0) {
    for (const [p, outcome] of await storeGroups(options, tenant, treeName, toStore, locked)) {
      settled[p.index] = outcome.ok ? results(p, outcome.value) : outcome;
    }
  }
  return settled;
}

async function guardRequests(
  guard: BatchWriteGuard,
  requests: readonly TreeWriteRequest[],
): Promise<Verdicts[]> {
  const first = requests[0];
  if (!first) return [];
  const ask = (writes: readonly PreparedWrite[]) =>
    guard({ tenant: first.tenant, treeName: first.treeName }, writes);
  try {
    const all = await ask(requests.flatMap((request) => request.writes));
    let offset = 0;
    return requests.map((request) => {
      const mine = all.slice(offset, offset + request.writes.length);
      offset += request.writes.length;
      return { ok: true, value: mine };
    });
  } catch (error) {
    if (requests.length === 1) return [{ ok: false, error }];
    // Find the request that made the guard fail: ask again one request at a time.
    return Promise.all(
      requests.map((request) =>
        ask(request.writes).then(
          (value): Verdicts => ({ ok: true, value }),
          (failure: unknown): Verdicts => ({ ok: false, error: failure }),
        ),
      ),
    );
  }
}

function plan(
  options: TreeGroupWriterOptions,
  request: TreeWriteRequest,
  index: number,
  verdicts: readonly WriteVerdict[],
): Planned {
  const stored: GroupEntryWrite[] = [];
  const slots: Planned['slots'] = request.writes.map((write, position) => {
    const verdict = verdicts[position];
    if (!verdict) throw new Error('the write guard returned fewer verdicts than writes');
    if (!verdict.apply) {
      return { deadLetter: { sequence: 0, deadLettered: true, deadLetterReason: verdict.reason } };
    }
    const valueJson =
      verdict.value === undefined
        ? write.canonical
        : canonicalValue(verdict.value, options.maxValueBytes);
    stored.push({ key: write.key, valueJson, schemaVersion: verdict.schemaVersion });
    return { stored: stored.length - 1 };
  });
  return { index, stored, slots };
}

function results(planned: Planned, firstSequence: number): Settled<PutEntryResult[]> {
  return {
    ok: true,
    value: planned.slots.map((slot) =>
      'deadLetter' in slot
        ? slot.deadLetter
        : { sequence: firstSequence + slot.stored, deadLettered: false },
    ),
  };
}

/** Stores the planned requests in one transaction; each settles with its first sequence. */
async function storeGroups(
  options: TreeGroupWriterOptions,
  tenant: string,
  treeName: string,
  planned: Planned[],
  locked: () => void,
): Promise<[Planned, Settled<number>][]> {
  const write = async (group: Planned[]): Promise<Settled<number>[]> => {
    const writes = group.flatMap((p) => p.stored);
    const outcome = await writeEntryGroup(
      options.storage,
      { tenant, treeName, now: options.clock(), writes },
      locked,
    );
    if (outcome.status === 'locked') {
      const error = lockedError(treeName, outcome.lockedBy);
      return group.map(() => ({ ok: false, error }));
    }
    options.onCommit?.({ tenant, treeName, requests: group.length, entries: writes.length });
    // Committed: an import's PutEntries add up until the planner's statistics need a refresh.
    noteEntriesWritten(options.storage, writes.length);
    let next = outcome.firstSequence;
    return group.map((p) => {
      const firstSequence = next;
      next += p.stored.length;
      return { ok: true, value: firstSequence };
    });
  };
  try {
    const outcomes = await write(planned);
    return planned.map((p, i) => [p, outcomes[i] ?? { ok: false, error: new Error('no outcome') }]);
  } catch (error) {
    if (planned.length === 1) return planned.map((p) => [p, { ok: false, error }]);
    // The shared transaction rolled back: nothing of it is stored. Each request on its own
    // finds the one that cannot be written (after the next group, if that one already queued
    // for the lock: these requests then take later sequences than it).
    const alone: [Planned, Settled<number>][] = [];
    for (const p of planned) {
      try {
        const [outcome] = await write([p]);
        alone.push([p, outcome ?? { ok: false, error: new Error('no outcome') }]);
      } catch (failure) {
        alone.push([p, { ok: false, error: failure }]);
      }
    }
    return alone;
  }
}

/** A put refused because a restore holds the tree's write lock. */
export function lockedError(treeName: string, lockedBy: string, operation = 'put') {
  return failedPrecondition(
    `tree '${treeName}' is write-locked by operation ${lockedBy} (a restore); ${operation} refused`,
  );
}
