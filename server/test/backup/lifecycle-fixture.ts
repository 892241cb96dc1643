// Shared by the backup lifecycle tests: lifecycle clients for a started backup server, captures,
// and waiting for a retention apply.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupLifecycleService,
  IdentityService,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { bearerInterceptor } from '../support/bearer.js';
import { ADMIN_TOKEN, type BackupServer } from './backup-fixture.js';

export type LifecycleClient = ReturnType<typeof createClient<typeof BackupLifecycleService>>;

/** A lifecycle client of the server acting with `token` (the bootstrap admin's by default). */
export function lifecycleClient(grpcUrl: string, token = ADMIN_TOKEN): LifecycleClient {
  const transport = createGrpcTransport({
    baseUrl: grpcUrl,
    interceptors: [bearerInterceptor(token)],
  });
  return createClient(BackupLifecycleService, transport);
}

/** The admin's audit client. */
export function adminAudit(grpcUrl: string) {
  const transport = createGrpcTransport({
    baseUrl: grpcUrl,
    interceptors: [bearerInterceptor(ADMIN_TOKEN)],
  });
  return createClient(IdentityService, transport);
}

/** Waits until a lifecycle operation is terminal. */
export async function settleLifecycle(
  client: LifecycleClient,
  operationId: string,
  timeoutMs = 30_000,
): Promise<StoreOperationStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await client.getLifecycleOperationStatus({ operationId });
    if (!status) throw new Error(`operation ${operationId} is not visible`);
    if (status.state >= StoreOperationState.SUCCEEDED) return status;
    if (Date.now() > deadline) throw new Error(`operation ${operationId} still ${status.state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Captures a full backup of a tree (or an incremental on `base`); returns its id. */
export async function capture(s: BackupServer, treeId: string, base?: string): Promise<string> {
  await s.put(treeId, { [`k${Date.now()}${Math.random()}`]: 1 });
  const handle = base
    ? await s.backup.startIncrementalBackup({
        name: `inc of ${base}`,
        scope: { treeId },
        baseBackupId: base,
      })
    : await s.backup.startBackup({ name: `full ${treeId}`, scope: { treeId } });
  const status = await s.finish(handle.operationId);
  if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
  return status.result.value.backupId;
}

/** Every backup id of a tree in the catalog. */
export async function catalogIds(s: BackupServer, treeId: string): Promise<string[]> {
  const ids: string[] = [];
  let pageToken = '';
  do {
    const page = await s.backup.listBackups({ pageSize: 500, pageToken, treeId });
    ids.push(...page.backups.map((b) => b.backupId));
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return ids.sort();
}
