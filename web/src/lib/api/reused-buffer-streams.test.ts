import { Code, ConnectError, createConnectRouter, type Interceptor } from '@connectrpc/connect';
import { createFetchHandler } from '@connectrpc/connect/protocol';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { BackupControlService, createBackupClient } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { withReusedBufferStreams } from './reused-buffer-streams';

const BASE_URL = 'http://console.test';

/** Chunks of distinct bytes, the last shorter, as the server streams an artifact. */
const CHUNKS = [70_000, 70_000, 1_234].map((length, n) =>
  Uint8Array.from({ length }, (_, i) => (i * 7 + n * 13) & 0xff),
);

/**
 * connect's own gRPC-Web server for BackupControlService, answering in-process through a fetch
 * function: the bytes on the wire are what a real server sends, envelopes and trailer included.
 */
function serverFetch(fail?: ConnectError): typeof globalThis.fetch {
  const router = createConnectRouter().service(BackupControlService, {
    async *exportArtifact() {
      for (const data of CHUNKS) yield { data };
      if (fail) throw fail;
    },
  });
  return async (input, init) => {
    const request = new Request(input, init);
    const handler = router.handlers.find((h) => h.requestPath === new URL(request.url).pathname);
    if (!handler) return new Response(null, { status: 404 });
    return createFetchHandler(handler)(request);
  };
}

function client(fetch: typeof globalThis.fetch, interceptors: Interceptor[] = []) {
  const base = createGrpcWebTransport({ baseUrl: BASE_URL, interceptors, fetch });
  const transport = withReusedBufferStreams(base, {
    baseUrl: BASE_URL,
    interceptors,
    fetch,
    methods: [BackupControlService.method.exportArtifact],
  });
  return createBackupClient(transport);
}

/** Each chunk copied as it comes: the reused buffer holds the next one after. */
async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const seen: Uint8Array[] = [];
  for await (const chunk of chunks) seen.push(chunk.slice());
  return seen;
}

describe('withReusedBufferStreams', () => {
  it("reads the export's chunks through the generated client, interceptors applied", async () => {
    const headers: string[] = [];
    const interceptor: Interceptor = (next) => (req) => {
      req.header.set('authorization', 'Bearer t');
      headers.push(`${req.method.name} ${req.header.get('content-type')}`);
      return next(req);
    };
    const seen = await collect(client(serverFetch(), [interceptor]).exportArtifact('b1', 'a1'));
    expect(seen.map((c) => c.byteLength)).toEqual(CHUNKS.map((c) => c.byteLength));
    seen.forEach((chunk, n) => expect(chunk.every((b, i) => b === CHUNKS[n]![i])).toBe(true));
    expect(headers).toEqual(['ExportArtifact application/grpc-web+proto']);
  });

  it("reports the server's error status from the trailer after the chunks it sent", async () => {
    const stream = client(
      serverFetch(new ConnectError('stored copy damaged', Code.DataLoss)),
    ).exportArtifact('b1', 'a1');
    let received = 0;
    const error = await (async () => {
      for await (const chunk of stream) received += chunk.byteLength;
    })().catch((e: unknown) => e);
    expect(received).toBe(CHUNKS.reduce((n, c) => n + c.byteLength, 0));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.DataLoss);
    expect((error as ConnectError).rawMessage).toBe('stored copy damaged');
  });

  it('stops the call when the signal aborts', async () => {
    const controller = new AbortController();
    const stream = client(serverFetch()).exportArtifact('b1', 'a1', { signal: controller.signal });
    const error = await (async () => {
      for await (const _chunk of stream) controller.abort();
    })().catch((e: unknown) => e);
    expect(ConnectError.from(error).code).toBe(Code.Canceled);
  });
});
