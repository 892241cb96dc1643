import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connect, type Socket } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import type * as grpc from '@grpc/grpc-js';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { BackupControlService, StoreOperationState, TreeDataService } from '@store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { HARD_EXIT_MARGIN_MS } from '../src/shutdown.js';
import { bearerInterceptor } from './support/bearer.js';
import { createGrpcJsClient } from './support/grpc-js-client.js';
import { fullUnreadPipe, startMain } from './support/shutdown-harness.js';
import { DIALECTS, newStorageLocation, removeStorageLocation } from './support/test-storage.js';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const STUCK_STOP_CHILD = fileURLToPath(new URL('./support/stuck-stop-child.ts', import.meta.url));
const TOKEN = 'shutdown-test-admin-token-0123456789';
const GRACE_MS = 1000;

describe('graceful shutdown', () => {
  const location = newStorageLocation('sqlite');
  afterAll(() => removeStorageLocation(location));

  it('on SIGTERM, health turns NOT_SERVING, streams end, and the process exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        ...process.env,
        STORE_DATA_DIR: location.dataDir,
        STORE_HTTP_PORT: '0',
        STORE_GRPC_PORT: '0',
        STORE_SHUTDOWN_GRACE_MS: '3000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!/Native gRPC \(h2c\): +(\S+)/.test(output)) {
      if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const grpcUrl = /Native gRPC \(h2c\): +(\S+)/.exec(output)![1]!;

    const client = createGrpcJsClient(Health, grpcUrl);
    const watch = (
      client.raw as unknown as Record<
        string,
        (req: unknown) => grpc.ClientReadableStream<{ status: number }>
      >
    ).watch!.call(client.raw, create(Health.method.watch.input, {}));
    const statuses: number[] = [];
    watch.on('data', (message) => statuses.push(message.status));
    const ended = new Promise<void>((resolve) => {
      watch.on('end', resolve);
      watch.on('error', () => resolve());
    });
    while (statuses.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(statuses[0]).toBe(ServingStatus.SERVING);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    await ended;
    client.close();
    expect(code).toBe(0);
    expect(statuses).toContain(ServingStatus.NOT_SERVING);
  });
});

describe.each(DIALECTS)('shutdown with work in flight, on %s', (dialect) => {
  const location = newStorageLocation(dialect);
  afterAll(() => removeStorageLocation(location));

  it('SIGTERM while puts and backups run, stdout a full pipe nobody reads: exits within the deadline', async () => {
    // The launcher of these servers was killed while the job reading its output kept the pipe
    // open: pino's exit-time flush then retried the full pipe forever, after the listeners and
    // the database had closed.
    const stdout = fullUnreadPipe();
    try {
      const server = await startMain(
        location,
        { STORE_BOOTSTRAP_TOKEN: TOKEN, STORE_SHUTDOWN_GRACE_MS: String(GRACE_MS) },
        stdout.writeFd,
      );
      const transport = createGrpcTransport({
        baseUrl: server.grpcUrl,
        interceptors: [bearerInterceptor(TOKEN)],
      });
      const data = createClient(TreeDataService, transport);
      const backup = createClient(BackupControlService, transport);
      for (let batch = 0; batch < 4; batch++) {
        const entries = Array.from({ length: 1000 }, (_, i) => ({
          key: `k${batch}-${i}`,
          valueJson: JSON.stringify({ batch, i, pad: 'x'.repeat(100) }),
        }));
        await data.putEntries({ treeId: 'big', entries });
      }
      let writing = true;
      const writers = Array.from({ length: 6 }, async (_, writer) => {
        for (let n = 0; writing; n++) {
          await data
            .putEntry({ treeId: 'hot', key: `w${writer}-${n}`, valueJson: '{}' })
            .catch(() => {
              writing = false;
            });
        }
      });
      const handles = [
        await backup.startBackup({ name: 'a', scope: { treeId: 'big' }, pageSize: 10 }),
        await backup.startBackup({ name: 'b', scope: { treeId: 'big' }, pageSize: 10 }),
      ];
      const { status } = await backup.getBackupOperationStatus({
        operationId: handles[1]!.operationId,
      });
      expect(status!.state).toBeLessThan(StoreOperationState.SUCCEEDED);

      const { code, afterMs } = await server.signalAndWait('SIGTERM', 20_000);
      writing = false;
      await Promise.all(writers);
      expect(afterMs).toBeLessThan(GRACE_MS + HARD_EXIT_MARGIN_MS);
      expect(code).toBe(0);
    } finally {
      stdout.close();
    }
  });
});

describe('shutdown after hostile HTTP input', () => {
  const location = newStorageLocation('sqlite');
  afterAll(() => removeStorageLocation(location));

  it('half-open sockets, a CONNECT, unfinished heads and bodies: SIGTERM still exits', async () => {
    const server = await startMain(location, { STORE_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const httpPort = Number(new URL(server.httpUrl).port);
    const grpcPort = Number(new URL(server.grpcUrl).port);
    const sockets: Socket[] = [];
    const send = (port: number, text: string, endOurSide = false) => {
      // allowHalfOpen: the server's FIN does not close this side; only the server can.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      socket.on('error', () => undefined);
      socket.resume();
      socket.write(text);
      if (endOurSide) socket.end();
      sockets.push(socket);
    };
    // A CONNECT answered 405 by the server, whose client never closes its side: the listener's
    // close waited for that socket indefinitely.
    send(httpPort, 'CONNECT elsewhere:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    send(
      httpPort,
      'POST /store.tree.v1.TreeDataService/PutEntry HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"treeId":',
    );
    send(httpPort, 'GET / HTTP/1.1\r\nHost: 127.0');
    send(httpPort, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', true);
    send(grpcPort, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    send(grpcPort, 'GET / HTTP/1.1\r\n\r\n', true);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const { code, afterMs } = await server.signalAndWait('SIGTERM', 20_000);
    for (const socket of sockets) socket.destroy();
    expect(afterMs).toBeLessThan(GRACE_MS + HARD_EXIT_MARGIN_MS);
    expect(code).toBe(0);
  });
});

describe('the hard exit', () => {
  it('a stop that never finishes still ends the process past its deadline, naming what was open', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', STUCK_STOP_CHILD], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null]>;
    while (!output.includes('ready')) await new Promise((r) => setTimeout(r, 50));
    const sent = Date.now();
    child.kill('SIGTERM');
    const [code] = await exited;
    // graceMs 200 + marginMs 300 in the child.
    expect(Date.now() - sent).toBeGreaterThanOrEqual(450);
    expect(code).toBe(1);
    const line = output.split('\n').find((l) => l.includes('did not finish'));
    expect(JSON.parse(line!)).toMatchObject({ level: 50, deadlineMs: 500 });
    expect((JSON.parse(line!) as { stillOpen: string[] }).stillOpen).toContain('Timeout');
  });
});
