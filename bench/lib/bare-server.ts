// The baselines and ceilings of rows 5, 8 and 9: the same connect-node listeners (listen():
// HTTP/1.1 + h2c) with bare handlers that answer at once — no interceptors, no auth, no storage.
// What a real call costs beyond one of these is the server's own work.
import type { ConnectRouter } from '@connectrpc/connect';
import { BackupControlService, TreeDataService, type backupV1 } from '@store/contract';
import { pino } from 'pino';
import { listen } from '../../server/src/http/listeners.js';

export interface BareServer {
  grpcUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

/** GetBackupOperationStatus answering `fixed` (row 5). */
export const bareStatus =
  (fixed: backupV1.BackupOperationStatusResponse) => (router: ConnectRouter) =>
    router.service(BackupControlService, { getBackupOperationStatus: () => fixed });

/** PutEntry and PutEntries answering as a write would, one sequence per entry (rows 8-9). */
export function bareWrites(router: ConnectRouter): void {
  let sequence = 0n;
  const written = () => ({ sequence: ++sequence, deadLettered: false });
  router.service(TreeDataService, {
    putEntry: written,
    putEntries: (request) => ({ results: request.entries.map(written) }),
  });
}

export async function startBareServer(
  routes: (router: ConnectRouter) => void,
): Promise<BareServer> {
  const listeners = await listen({
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    routes,
    interceptors: [],
    maxMessageBytes: 4 * 1024 * 1024,
    fallback: (_req, res) => {
      res.writeHead(404).end();
    },
    logger: pino({ level: 'silent' }),
  });
  return {
    grpcUrl: `http://127.0.0.1:${listeners.grpcPort}`,
    httpUrl: `http://127.0.0.1:${listeners.httpPort}`,
    close: () => listeners.close(1000),
  };
}
