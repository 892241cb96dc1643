import { BackupEngine } from '../../src/engines/backup/backup-engine.js';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import type { OperationRecord } from '../../src/engines/operations/types.js';
import { storeUnderTest } from './artifact-stores.js';
import type { TestStorage } from './test-storage.js';

/** A started backup engine over a test database and a directory artifact store. */
export interface BackupEngineUnderTest {
  engine: BackupEngine;
  runner: OperationRunner;
  /** Waits for `op` to end; its result when it SUCCEEDED, otherwise throws with its state. */
  finish(op: OperationRecord): Promise<unknown>;
  stop(): Promise<void>;
}

/** Starts a BackupEngine (no health monitoring) whose runner polls every 20 ms. */
export async function startBackupEngine(
  storage: TestStorage,
  tenant: string,
): Promise<BackupEngineUnderTest> {
  const runner = new OperationRunner({ storage, pollMs: 20 });
  const target = await storeUnderTest('directory');
  const engine = new BackupEngine({
    storage,
    runner,
    artifacts: target.open(storage.location.dataDir),
    schedulerMinIntervalMs: 1000,
    healthMonitoring: false,
  });
  runner.start();
  const finish = async (op: OperationRecord) => {
    for (;;) {
      const now = await runner.get(tenant, op.id);
      if (now?.finishedAt) {
        if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
        return now.result;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { engine, runner, finish, stop: () => runner.stop({ graceMs: 0 }) };
}
