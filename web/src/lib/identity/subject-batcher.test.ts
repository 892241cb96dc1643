import { create } from '@bufbuild/protobuf';
import { ResolvedSubjectSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { SubjectBatcher } from './subject-batcher';

const named = (subject: string, displayName: string) =>
  create(ResolvedSubjectSchema, { subject, displayName, kind: 'token', named: true });

describe('SubjectBatcher', () => {
  it('asks once for every subject of one tick, each subject once', async () => {
    const calls: string[][] = [];
    const batcher = new SubjectBatcher(async (subjects) => {
      calls.push(subjects);
      return subjects.map((s) => named(s, `name of ${s}`));
    });
    const answers = await Promise.all([
      batcher.resolve('token:a'),
      batcher.resolve('token:b'),
      batcher.resolve('token:a'),
    ]);
    expect(calls).toEqual([['token:a', 'token:b']]);
    expect(answers.map((a) => a?.displayName)).toEqual([
      'name of token:a',
      'name of token:b',
      'name of token:a',
    ]);
  });

  it('splits a large tick into calls of at most 200', async () => {
    const sizes: number[] = [];
    const batcher = new SubjectBatcher(async (subjects) => {
      sizes.push(subjects.length);
      return [];
    });
    await Promise.all(Array.from({ length: 450 }, (_, i) => batcher.resolve(`token:${i}`)));
    expect(sizes).toEqual([200, 200, 50]);
  });

  it('fails every waiter of a refused call, and the next tick asks again', async () => {
    let refuse = true;
    const batcher = new SubjectBatcher(async (subjects) => {
      if (refuse) throw new Error('Unimplemented');
      return subjects.map((s) => named(s, 'ok'));
    });
    await expect(batcher.resolve('token:a')).rejects.toThrow('Unimplemented');
    refuse = false;
    expect((await batcher.resolve('token:a'))?.displayName).toBe('ok');
  });
});
