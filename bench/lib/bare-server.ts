// The baseline of the unary row: the same connect-node listeners (listen(): HTTP/1.1 + h2c) with
// one bare handler that returns a fixed message — no interceptors, no auth, no storage.
import { BackupControlService, type backupV1 } from '@store/contract';
import { pino } from 'pino';
import { listen } from '../../server/src/http/listeners.js';

export interface BareServer {
  grpcUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

export async function startBareServer(
  fixed: backupV1.BackupOperationStatusResponse,
): Promise<BareServer> {
  const listeners = await listen({
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    routes: (router) => {
      router.service(BackupControlService, { getBackupOperationStatus: () => fixed });
    },
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
