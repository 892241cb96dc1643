import { create } from '@bufbuild/protobuf';
import { StoreSchemaDeadLetterEntrySchema, type StoreSchemaDeadLetterEntry } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { DeadLetterReader } from './dead-letter-reader';

function letters(count: number) {
  const pulled: number[] = [];
  let aborted = false;
  async function* stream(signal: AbortSignal): AsyncGenerator<StoreSchemaDeadLetterEntry> {
    signal.addEventListener('abort', () => (aborted = true));
    for (let i = 0; i < count; i++) {
      pulled.push(i);
      await Promise.resolve();
      yield create(StoreSchemaDeadLetterEntrySchema, { key: `k${i}` });
    }
  }
  return { stream, pulled, wasAborted: () => aborted };
}

async function settled(reader: DeadLetterReader) {
  for (let i = 0; i < 50 && reader.getSnapshot().reading; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return reader.getSnapshot();
}

describe('DeadLetterReader', () => {
  it('reads only as far as asked, then further on demand, then to the end', async () => {
    const source = letters(5);
    const reader = new DeadLetterReader(source.stream);
    reader.ensure(2);
    expect((await settled(reader)).rows.map((r) => r.key)).toEqual(['k0', 'k1']);
    expect(source.pulled).toEqual([0, 1]);
    reader.ensure(10);
    const end = await settled(reader);
    expect(end.rows).toHaveLength(5);
    expect(end.done).toBe(true);
  });

  it('stops reading when closed', async () => {
    const source = letters(100);
    const reader = new DeadLetterReader(source.stream);
    reader.ensure(1);
    await settled(reader);
    reader.close();
    reader.ensure(50);
    await settled(reader);
    expect(source.wasAborted()).toBe(true);
    expect(source.pulled.length).toBeLessThan(3);
  });

  it('keeps the rows read before a failure and reports it', async () => {
    const reader = new DeadLetterReader(async function* () {
      await Promise.resolve();
      yield create(StoreSchemaDeadLetterEntrySchema, { key: 'only' });
      throw new Error('stream broke');
    });
    reader.ensure(5);
    const state = await settled(reader);
    expect(state.rows.map((r) => r.key)).toEqual(['only']);
    expect((state.error as Error).message).toBe('stream broke');
  });
});
