import { describe, expect, it } from 'vitest';
import { GroupCommitQueue, type Settled } from './group-commit-queue.js';

/** A commit the test lets reach its lock, then finish, step by step. */
function gatedCommits() {
  const log: string[] = [];
  const gates: { lock: () => void; finish: () => void }[] = [];
  const queue = new GroupCommitQueue<string, string>({
    weight: () => 1,
    maxWeight: 100,
    commit: async (items, locked) => {
      const name = items.join('+');
      log.push(`start ${name}`);
      let lock!: () => void;
      let finish!: () => void;
      const lockGate = new Promise<void>((resolve) => (lock = resolve));
      const finishGate = new Promise<void>((resolve) => (finish = resolve));
      gates.push({ lock, finish });
      await lockGate;
      log.push(`locked ${name}`);
      locked();
      await finishGate;
      log.push(`end ${name}`);
      return items.map((item): Settled<string> => ({ ok: true, value: `${item} done` }));
    },
  });
  return { queue, log, gates };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommitQueue', () => {
  it('starts the next group once the running one holds its lock, not before', async () => {
    const { queue, log, gates } = gatedCommits();
    const a = queue.submit('tree', 'a');
    await turn(); // group [a] is taken and committing
    const b = queue.submit('tree', 'b');
    const c = queue.submit('tree', 'c');
    await turn();
    expect(log).toEqual(['start a']); // b and c wait: a does not hold its lock yet

    gates[0]?.lock();
    await turn();
    expect(log).toEqual(['start a', 'locked a', 'start b+c']); // one group for both

    gates[1]?.lock(); // in a database this waits for a's commit; here it only records order
    gates[0]?.finish();
    gates[1]?.finish();
    expect(await Promise.all([a, b, c])).toEqual(['a done', 'b done', 'c done']);
    expect(log.slice(3)).toEqual(['locked b+c', 'end a', 'end b+c']);
  });

  it('a group that never locks (refused before its write) lets the next one start when it ends', async () => {
    const queue = new GroupCommitQueue<string, string>({
      weight: () => 1,
      maxWeight: 100,
      commit: async (items) => items.map((): Settled<string> => ({ ok: false, error: 'no' })),
    });
    const outcome = (item: string) => queue.submit('tree', item).catch((error: unknown) => error);
    const first = outcome('a');
    await turn();
    const second = outcome('b');
    expect(await Promise.all([first, second])).toEqual(['no', 'no']);
  });
});
