// Issue 17 (writes): group commit must not lose an acknowledged write across SIGKILL. Many
// concurrent PutEntry and PutEntries callers write one tree; the server is killed mid-stream and
// started again on the same storage. What must hold, precisely:
// - acknowledged ⊆ present: every write the server answered is stored, with its value and the
//   sequence it was answered with (keys are unique per write, so nothing overwrote it);
// - present ⊆ sent: nothing is stored that no caller sent, and nothing of a call answered with
//   an error before the kill; the only unacknowledged writes present are calls in flight at the
//   kill whose commit happened before it — and a PutEntries call is there whole or not at all;
// - sequences are unique, each caller's acknowledged sequences increase, a PutEntries call's are
//   consecutive, and the first write after the restart gets a sequence above all of them.
import { describe, expect, it } from 'vitest';
import { listLiveEntries, resolveTree } from '../../src/storage/data/tree-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { TENANT, startKillHarness } from './kill-fixture.js';

const SINGLE_WRITERS = 16;
const BATCH_WRITERS = 4;
const TREE = 'hot';

interface Call {
  keys: string[];
  values: string[];
  state: 'in-flight' | 'acknowledged' | 'failed';
  sequences?: number[];
}

describe.each(DIALECTS)('SIGKILL during concurrent puts, on %s', (dialect) => {
  it('every acknowledged put is there after restart, nothing unsent is, sequences unique and ordered', async () => {
    const h = await startKillHarness(dialect);
    try {
      const calls: Call[] = [];
      let acknowledgedEntries = 0;
      let killed = false;
      const value = (writer: string, n: number, i = 0) => JSON.stringify({ i, n, writer });
      const single = async (w: number) => {
        for (let n = 0; !killed; n++) {
          const key = `s${w}-${n}`;
          const call: Call = { keys: [key], values: [value(`s${w}`, n)], state: 'in-flight' };
          calls.push(call);
          try {
            const result = await h.clients.data.putEntry({
              treeId: TREE,
              key,
              valueJson: call.values[0]!,
            });
            call.state = 'acknowledged';
            call.sequences = [Number(result.sequence)];
            acknowledgedEntries += 1;
          } catch {
            call.state = 'failed';
            return;
          }
        }
      };
      const batch = async (w: number) => {
        for (let n = 0; !killed; n++) {
          const size = 20 + ((w * 37 + n * 11) % 180);
          const keys = Array.from({ length: size }, (_, i) => `b${w}-${n}-${i}`);
          const values = keys.map((_, i) => value(`b${w}`, n, i));
          const call: Call = { keys, values, state: 'in-flight' };
          calls.push(call);
          try {
            const { results } = await h.clients.data.putEntries({
              treeId: TREE,
              entries: keys.map((key, i) => ({ key, valueJson: values[i]! })),
            });
            call.state = 'acknowledged';
            call.sequences = results.map((r) => Number(r.sequence));
            acknowledgedEntries += size;
          } catch {
            call.state = 'failed';
            return;
          }
        }
      };
      const writers = [
        ...Array.from({ length: SINGLE_WRITERS }, (_, w) => single(w)),
        ...Array.from({ length: BATCH_WRITERS }, (_, w) => batch(w)),
      ];
      // A random kill point, well inside the stream of writes.
      const killAfter = 500 + Math.floor(Math.random() * 1500);
      await h.until(async () => acknowledgedEntries >= killAfter, 60_000);
      killed = true; // no writer starts another call
      const inFlightAtKill = calls.filter((c) => c.state === 'in-flight').length;
      await h.kill();
      await Promise.all(writers);
      // Every call still in flight at the kill failed with it; none was refused before.
      expect(calls.filter((c) => c.state === 'failed').length).toBeGreaterThan(0);
      expect(calls.filter((c) => c.state === 'failed').length).toBeLessThanOrEqual(inFlightAtKill);
      await h.restart();

      const stored = new Map<string, { valueJson: string; sequence: number }>();
      let afterKey: string | undefined;
      for (;;) {
        const page = await listLiveEntries(h.storage, TENANT, TREE, { afterKey, limit: 5000 });
        for (const e of page)
          stored.set(e.key, { valueJson: e.valueJson ?? '', sequence: e.sequence });
        if (page.length < 5000) break;
        afterKey = page.at(-1)?.key;
      }

      const sent = new Map<string, string>();
      for (const call of calls) call.keys.forEach((key, i) => sent.set(key, call.values[i]!));
      // acknowledged ⊆ present, with the acknowledged value and sequence.
      for (const call of calls.filter((c) => c.state === 'acknowledged')) {
        call.keys.forEach((key, i) => {
          expect(stored.get(key), key).toEqual({
            valueJson: call.values[i],
            sequence: call.sequences?.[i],
          });
        });
        const sequences = call.sequences ?? [];
        expect(sequences.every((s, i) => i === 0 || s === sequences[i - 1]! + 1)).toBe(true);
      }
      // present ⊆ sent, with the value sent.
      for (const [key, entry] of stored) expect(entry.valueJson, key).toBe(sent.get(key));
      // A failed (in-flight) PutEntries call is stored whole or not at all.
      for (const call of calls.filter((c) => c.state === 'failed')) {
        const present = call.keys.filter((key) => stored.has(key)).length;
        expect([0, call.keys.length], call.keys[0]).toContain(present);
      }
      // Sequences: unique; each caller's acknowledged ones increase (sequences follow commit
      // order, and a caller's next call starts after its previous one was committed).
      const sequences = [...stored.values()].map((e) => e.sequence);
      expect(new Set(sequences).size).toBe(sequences.length);
      const byWriter = new Map<string, number[]>();
      for (const call of calls.filter((c) => c.state === 'acknowledged')) {
        const writer = call.keys[0]!.split('-')[0]!;
        byWriter.set(writer, [...(byWriter.get(writer) ?? []), ...(call.sequences ?? [])]);
      }
      for (const [writer, mine] of byWriter) {
        expect(
          mine.every((s, i) => i === 0 || s > mine[i - 1]!),
          writer,
        ).toBe(true);
      }
      const highest = Math.max(...sequences);
      expect((await resolveTree(h.storage, TENANT, TREE))?.lastSequence).toBeGreaterThanOrEqual(
        highest,
      );
      const after = await h.clients.data.putEntry({ treeId: TREE, key: 'after', valueJson: '1' });
      expect(Number(after.sequence)).toBeGreaterThan(highest);
    } finally {
      await h.dispose();
    }
  }, 180_000);
});
