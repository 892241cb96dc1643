import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('validation budget settings', () => {
  it('default to two threads, one second per value and 256 MiB per thread', () => {
    const config = loadConfig({ env: {} });
    expect(config.validationThreads).toBe(2);
    expect(config.validationTimeBudgetMs).toBe(1_000);
    expect(config.validationMemoryMb).toBe(256);
  });

  it('read set values', () => {
    const env = {
      STORE_VALIDATION_THREADS: '4',
      STORE_VALIDATION_TIME_BUDGET_MS: '250',
      STORE_VALIDATION_MEMORY_MB: '512',
    };
    const config = loadConfig({ env });
    expect([config.validationThreads, config.validationTimeBudgetMs]).toEqual([4, 250]);
    expect(config.validationMemoryMb).toBe(512);
  });

  it('refuse bad values with the setting named', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      // One thread would let one tenant's heavy policy hold it from every other tenant.
      [{ STORE_VALIDATION_THREADS: '1' }, /STORE_VALIDATION_THREADS: must be an integer/],
      [{ STORE_VALIDATION_TIME_BUDGET_MS: 'soon' }, /STORE_VALIDATION_TIME_BUDGET_MS: must be/],
      [{ STORE_VALIDATION_MEMORY_MB: '8' }, /STORE_VALIDATION_MEMORY_MB: must be an integer/],
    ];
    for (const [env, message] of cases) expect(() => loadConfig({ env })).toThrow(message);
  });

  it('start the validation threads with the server unless told not to', () => {
    expect(loadConfig({ env: {} }).validationWarmStart).toBe(true);
    expect(loadConfig({ env: { STORE_VALIDATION_WARM_START: 'false' } }).validationWarmStart).toBe(
      false,
    );
    expect(() => loadConfig({ env: { STORE_VALIDATION_WARM_START: 'soon' } })).toThrow(
      /STORE_VALIDATION_WARM_START/,
    );
  });
});
