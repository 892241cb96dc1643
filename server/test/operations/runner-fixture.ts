import { afterEach } from 'vitest';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import type {
  OperationRecord,
  OperationRunnerOptions,
} from '../../src/engines/operations/types.js';
import type { Dialect } from '../../src/storage/database.js';
import { storagePerTest } from '../support/storage-per-test.js';
import type { TestStorage } from '../support/test-storage.js';
import { waitFor } from './wait-for.js';

export type { TestStorage } from '../support/test-storage.js';

/** A promise with its resolve exposed: lets a test hold a handler mid-run. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Rejects with the signal's reason once it aborts: a handler that works until stopped. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason));
  });
}

/** Waits until the operation has finished (any terminal state) and returns it. */
export function finished(runner: OperationRunner, tenant: string, id: string) {
  return waitFor(`operation ${id} to finish`, async () => {
    const op = await runner.get(tenant, id);
    return op && op.finishedAt !== null ? op : undefined;
  });
}

/** Waits until the operation is in `state`. */
export function inState(
  runner: OperationRunner,
  tenant: string,
  id: string,
  state: OperationRecord['state'],
) {
  return waitFor(`operation ${id} to be ${state}`, async () => {
    const op = await runner.get(tenant, id);
    return op?.state === state ? op : undefined;
  });
}

/**
 * Per-test storage and runners on one dialect, all stopped and removed after each test. Runners
 * poll fast so tests stay short; leases stay long unless a test is about leases.
 */
export function useRunners(dialect: Dialect) {
  // Before the hook below, so its afterEach runs last: the runners stop before the storage goes.
  const freshStorage = storagePerTest(dialect);
  const runners: OperationRunner[] = [];
  let storage: TestStorage | undefined;
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ graceMs: 0 })));
    storage = undefined;
  });
  return {
    async storage(): Promise<TestStorage> {
      storage ??= await freshStorage();
      return storage;
    },
    async runner(options: Partial<OperationRunnerOptions> = {}): Promise<OperationRunner> {
      const runner = new OperationRunner({ storage: await this.storage(), pollMs: 50, ...options });
      runners.push(runner);
      return runner;
    },
  };
}
