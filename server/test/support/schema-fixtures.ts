import type { Storage } from '../../src/storage/database.js';
import { StoreError } from '../../src/engines/errors.js';
import type { RunControl } from '../../src/engines/schema/records.js';
import { bulkInsertEntries } from '../../src/storage/data/physical-tree-store.js';
import { ensureTree } from '../../src/storage/data/tree-store.js';

/** Entries for seedTree: [key, value, schema version]. */
export type SeedEntry = readonly [key: string, value: unknown, schemaVersion: number];

/** Creates (or extends) a tree with the given entries in one bulk insert; fast for big trees. */
export async function seedTree(
  storage: Storage,
  tenant: string,
  treeName: string,
  entries: readonly SeedEntry[],
): Promise<void> {
  const tree = await ensureTree(storage, tenant, treeName, 1);
  await bulkInsertEntries(
    storage,
    tree.physicalTreeId,
    entries.map(([key, value, schemaVersion], index) => ({
      key,
      valueJson: JSON.stringify(value),
      tombstone: false,
      sequence: tree.lastSequence + index + 1,
      schemaVersion,
      updatedAt: 1,
    })),
  );
}

/**
 * A run control as the runner would give one, cancelled when throwIfCancelled is called for the
 * (cancelAt)th time; checkpoints are kept so a second run can resume from them.
 */
export function testControl<C>(
  options: { cancelAt?: number; checkpoint?: C; operationId?: string } = {},
): RunControl<C> & { checkpoints: C[]; cancelled(): boolean } {
  const controller = new AbortController();
  const checkpoints: C[] = [];
  let calls = 0;
  let last = options.checkpoint;
  return {
    operationId: options.operationId ?? 'op-test',
    createdBy: 'tester',
    signal: controller.signal,
    throwIfCancelled() {
      calls += 1;
      if (
        options.cancelAt !== undefined &&
        calls >= options.cancelAt &&
        !controller.signal.aborted
      ) {
        controller.abort(new StoreError('cancelled', 'the operation was cancelled'));
      }
      controller.signal.throwIfAborted();
    },
    progress() {},
    async checkpoint(value) {
      checkpoints.push(structuredClone(value));
      last = value;
    },
    get checkpointValue() {
      return last;
    },
    checkpoints,
    cancelled: () => controller.signal.aborted,
  };
}
