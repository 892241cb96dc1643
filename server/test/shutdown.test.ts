import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import type * as grpc from '@grpc/grpc-js';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createGrpcJsClient } from './support/grpc-js-client.js';
import { newStorageLocation, removeStorageLocation } from './support/test-storage.js';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

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
