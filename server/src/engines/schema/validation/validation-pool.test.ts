import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import { ValidationPool } from './validation-pool.js';

// Heavy at run time, yet small and inside the static limits: each item is checked against 200
// patterns (and 200 branches), so a 20 000-item array is 4 million checks.
const SLOW = JSON.stringify({
  type: 'array',
  items: { allOf: Array.from({ length: 200 }, (_, i) => ({ not: { pattern: `^x${i}$` } })) },
});
const NAMED = JSON.stringify({ type: 'object', required: ['name'] });

describe('the validation pool', () => {
  const pool = new ValidationPool({ threads: 2, timeBudgetMs: 500, memoryBudgetMb: 128 });
  afterAll(() => pool.close());

  it('starts no thread before it is needed; a warm start starts them all before any check', async () => {
    const warmed = new ValidationPool({ threads: 2 });
    try {
      expect(warmed.threadCount).toBe(0);
      await warmed.warm();
      // Two threads and the spare that replaces one lost to a value over budget.
      expect(warmed.threadCount).toBe(3);
    } finally {
      await warmed.close();
    }
    expect(warmed.threadCount).toBe(0);
    await warmed.warm(); // after close: nothing starts
    expect(warmed.threadCount).toBe(0);
  });

  it('judges a batch in a worker: pass, fail with violations', async () => {
    const verdicts = await pool.validateMany({ tenant: 't', jsonSchema: NAMED }, [
      { name: 'a' },
      {},
    ]);
    expect(verdicts[0]).toEqual({ kind: 'pass' });
    expect(verdicts[1]).toMatchObject({
      kind: 'fail',
      violations: [{ path: '', keyword: 'required' }],
    });
  });

  it('refuses a schema that does not compile with InvalidArgument naming the field', async () => {
    const error = await pool.compile('t', '{"type": 12}', 'json_schema').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('invalid_argument');
    expect((error as StoreError).field).toBe('json_schema');
  });

  it('a stored schema over the limits is FailedPrecondition when values are judged', async () => {
    const loop = JSON.stringify({ $ref: '#' });
    const error = await pool
      .validateMany({ tenant: 't', jsonSchema: loop }, [1])
      .catch((e: unknown) => e);
    expect((error as StoreError).code).toBe('failed_precondition');
    expect((error as StoreError).message).toContain('$ref cycle');
  });

  it('terminates a worker mid-value: that value is over budget, the ones around it are judged', async () => {
    const big = Array.from({ length: 60_000 }, (_, i) => `v${i}`);
    const started = Date.now();
    const verdicts = await pool.validateMany({ tenant: 't', jsonSchema: SLOW }, [
      ['ok'],
      big,
      ['y'],
      ['x7'],
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(verdicts.map((v) => v.kind)).toEqual(['pass', 'over_budget', 'pass', 'fail']);
    expect(verdicts[1]).toMatchObject({
      reason: expect.stringMatching(/over the validation budget/),
    });
    // The same value again is remembered: answered without another budget's wait.
    const again = Date.now();
    const [verdict] = await pool.validateMany({ tenant: 't', jsonSchema: SLOW }, [big]);
    expect(verdict?.kind).toBe('over_budget');
    expect(Date.now() - again).toBeLessThan(250);
  });

  it('a value over the memory budget loses its worker and is over budget; the pool goes on', async () => {
    const small = new ValidationPool({ threads: 2, timeBudgetMs: 60_000, memoryBudgetMb: 32 });
    try {
      // allErrors keeps every error: 200 failing branches for each of 50 000 items.
      const hungry = JSON.stringify({
        items: { allOf: Array.from({ length: 200 }, () => ({ type: 'string' })) },
      });
      const numbers = Array.from({ length: 50_000 }, (_, i) => i);
      const verdicts = await small.validateMany({ tenant: 't', jsonSchema: hungry }, [
        numbers,
        ['fine'],
      ]);
      expect(verdicts[0]).toMatchObject({
        kind: 'over_budget',
        reason: expect.stringMatching(/needed more than 32 MiB/),
      });
      expect(verdicts[1]).toEqual({ kind: 'pass' });
    } finally {
      await small.close();
    }
  });
});
