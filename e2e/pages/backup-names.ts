import { StoreOperationState } from '@store/contract';
import type { StoreApi } from '../support/fixtures';

/** Waits for a tracked capture through the status RPC and returns the backup it made. */
export async function capturedBackupId(api: StoreApi, operationId: string): Promise<string> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (status?.state === StoreOperationState.SUCCEEDED && status.result.case === 'capture') {
      return status.result.value.backupId;
    }
    if (status && status.state > StoreOperationState.SUCCEEDED) {
      throw new Error(`capture ended ${StoreOperationState[status.state]}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('capture did not finish');
}

/** A backup of `treeId` made behind the console (full, or incremental on `base`), waited for. */
export async function madeBackup(
  api: StoreApi,
  treeId: string,
  name: string,
  base?: string,
): Promise<string> {
  const handle = base
    ? await api.backup.startIncrementalBackup({ name, scope: { treeId }, baseBackupId: base })
    : await api.backup.startBackup({ name, scope: { treeId } });
  return capturedBackupId(api, handle.operationId);
}

/** Waits for any backup operation to end; returns its final state. */
export async function finishedState(
  api: StoreApi,
  operationId: string,
): Promise<StoreOperationState> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (status && status.state >= StoreOperationState.SUCCEEDED) return status.state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('operation did not finish');
}

/** A tree with a full backup and an incremental on it, both named; returns their ids. */
export async function seedNamedChain(
  api: StoreApi,
  tree: string,
  names: { full: string; incremental: string },
): Promise<{ fullId: string; incrementalId: string; fullOperationId: string }> {
  await api.data.putEntry({ treeId: tree, key: 'a', valueJson: '{"v":1}' });
  const full = await api.backup.startBackup({ name: names.full, scope: { treeId: tree } });
  const fullId = await capturedBackupId(api, full.operationId);
  await api.data.putEntry({ treeId: tree, key: 'b', valueJson: '{"v":2}' });
  const incremental = await api.backup.startIncrementalBackup({
    name: names.incremental,
    scope: { treeId: tree },
    baseBackupId: fullId,
  });
  const incrementalId = await capturedBackupId(api, incremental.operationId);
  return { fullId, incrementalId, fullOperationId: full.operationId };
}
