/**
 * A separate server process for the multi-process tests: opens the storage location given in
 * STORE_TEST_LOCATION and runs an OperationRunner with test kinds until SIGTERM or SIGKILL.
 * Modes: `crash` (handlers that never finish on their own) and `count` (handlers that record
 * each execution in a side table, to prove each operation ran once).
 */
import { sql } from 'kysely';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import { openStorage } from '../../src/storage/database.js';
import {
  EXECUTIONS_TABLE,
  TEST_COUNTED,
  TEST_RESUMABLE,
  TEST_SLOW,
  type ChildMode,
} from './child-kinds.js';

const location = JSON.parse(process.env.STORE_TEST_LOCATION ?? '{}') as { dataDir: string };
const mode = process.env.STORE_TEST_MODE as ChildMode;
const leaseMs = Number(process.env.STORE_TEST_LEASE_MS ?? '1000');

const storage = await openStorage(location);
const runner = new OperationRunner({
  storage,
  nodeId: `child-${process.pid}`,
  leaseMs,
  pollMs: 100,
});

/** Waits until the signal aborts: stands in for long work that a crash interrupts. */
const hang = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

if (mode === 'crash') {
  runner.register(TEST_SLOW, {
    resumable: false,
    async run(ctx) {
      ctx.progress({ done: 1, total: 10, unit: 'steps', message: 'started' });
      return hang(ctx.signal);
    },
  });
  runner.register<unknown, { step: number }>(TEST_RESUMABLE, {
    resumable: true,
    async run(ctx) {
      await ctx.checkpoint({ step: 1 });
      return hang(ctx.signal);
    },
  });
} else {
  runner.register(TEST_COUNTED, {
    resumable: false,
    async run(ctx) {
      await sql`insert into ${sql.table(EXECUTIONS_TABLE)} (operation_id, pid) values (${ctx.operationId}, ${process.pid})`.execute(
        storage.db,
      );
      // Long enough that the other process polls while this one is busy: real contention.
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { pid: process.pid };
    },
  });
}

runner.start();
process.on('SIGTERM', () => {
  void runner
    .stop({ graceMs: 1000 })
    .then(() => storage.close())
    .then(() => process.exit(0));
});
process.stdout.write('ready\n');
