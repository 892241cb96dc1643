// Shared by the backup integration tests: a real server on port 0 with an admin token, typed
// clients, and helpers to fill and read trees and to wait for tracked operations.
import { ConnectError, createClient, type Code } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  StoreOperationState,
  TreeDataService,
  type StoreOperationStatus,
} from '@store/contract';
import type { Dialect } from '../../src/storage/database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bearerInterceptor } from '../support/bearer.js';

export const ADMIN_TOKEN = 'backup-test-admin-token-0123456789';

/** A started server with clients acting as the bootstrap admin of tenant `default`. */
export async function startBackupServer(dialect: Dialect, env: Record<string, string> = {}) {
  const t: TestServer = await startTestServer(dialect, {
    STORE_BOOTSTRAP_TOKEN: ADMIN_TOKEN,
    ...env,
  });
  const withToken = bearerInterceptor(ADMIN_TOKEN);
  const transport = createGrpcTransport({ baseUrl: t.server.grpcUrl, interceptors: [withToken] });
  const backup = createClient(BackupControlService, transport);
  const data = createClient(TreeDataService, transport);
  return {
    t,
    backup,
    data,
    /** Waits until the operation is terminal and returns its status. */
    async finish(operationId: string, timeoutMs = 20_000): Promise<StoreOperationStatus> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status } = await backup.getBackupOperationStatus({ operationId });
        if (!status) throw new Error(`operation ${operationId} is not visible`);
        if (status.state >= StoreOperationState.SUCCEEDED) return status;
        if (Date.now() > deadline)
          throw new Error(`operation ${operationId} still ${status.state}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** Puts `value` (as JSON) under each key. */
    async put(treeId: string, entries: Record<string, unknown>) {
      for (const [key, value] of Object.entries(entries)) {
        await data.putEntry({ treeId, key, valueJson: JSON.stringify(value) });
      }
    },
    /** Every live entry of a tree, key → parsed value. */
    async read(treeId: string): Promise<Record<string, unknown>> {
      const out: Record<string, unknown> = {};
      let pageToken = '';
      do {
        const page = await data.listEntries({ treeId, pageSize: 1000, pageToken });
        for (const e of page.entries) out[e.key] = JSON.parse(e.valueJson) as unknown;
        pageToken = page.nextPageToken;
      } while (pageToken !== '');
      return out;
    },
  };
}

export type BackupServer = Awaited<ReturnType<typeof startBackupServer>>;

/** The gRPC code a call fails with (or 'ok'). */
export async function codeOf(promise: Promise<unknown>): Promise<Code | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return ConnectError.from(error).code;
  }
}
