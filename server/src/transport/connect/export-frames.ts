import {
  createContextKey,
  createContextValues,
  type ConnectRouter,
  type HandlerContext,
} from '@connectrpc/connect';
import type { UniversalServerRequest, UniversalServerResponse } from '@connectrpc/connect/protocol';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { BackupControlService, backupV1 } from '@store/contract';
import { replacingHandler } from './universal-handler-wrap.js';

/** An ArtifactChunk with `data` left out: what the implementation yields while a chunk waits. */
type EmptyArtifactChunk = Record<string, never>;

/**
 * ExportArtifact's chunks go to the socket without connect copying them.
 *
 * connect serializes every message (protobuf's `finish` copies the chunk) and then envelopes it
 * (`encodeEnvelope` copies it again): two fresh 1 MiB buffers per chunk, about half the server's
 * CPU per exported megabyte (docs/performance.md, rows 16-18). For the binary protocols, the
 * implementation hands each chunk's bytes over here and yields an ArtifactChunk with `data` left
 * empty; connect still runs the whole call (auth, tenant, audit, the stream re-check, errors) and
 * writes its 5-byte envelope for the empty message. This wrapper replaces that envelope with the
 * real one: the header and the `data` field's tag and length in one small write, then the chunk
 * itself, a view of the engine's read block.
 *
 * It relies on how connect writes a server stream: one whole envelope per body chunk, in order,
 * each pulled only after the previous was written (no read-ahead). Anything else (a message the
 * wrapper did not expect while a chunk waits, two chunks waiting at once) fails the call instead
 * of pairing bytes with the wrong message; tests pin the assumption (export-frames.test.ts).
 *
 * One handoff per call: the implementation `carry`s a chunk, the wrapper `take`s it for the
 * envelope of the message the implementation yielded in its place.
 */
export class ExportChunkHandoff {
  private waiting: Uint8Array | undefined;

  /** Keeps `data` for the next envelope; returns the message to yield in its place. */
  carry(data: Uint8Array): EmptyArtifactChunk {
    if (this.pending) {
      throw new ExportFramingError('a chunk was handed over before the last went out');
    }
    this.waiting = data;
    return {};
  }

  /** The chunk handed over for the message being framed, if any. */
  take(): Uint8Array | undefined {
    const data = this.waiting;
    this.waiting = undefined;
    return data;
  }

  /** Whether a chunk waits (an empty one too: it is still a Uint8Array). */
  get pending(): boolean {
    return this.waiting !== undefined;
  }
}

export class ExportFramingError extends Error {
  override name = 'ExportFramingError';
}

const handoffKey = createContextKey<ExportChunkHandoff | undefined>(undefined, {
  description: 'ExportArtifact chunks framed outside connect',
});

/** The handoff for this call, when its response is framed by this module. */
export function exportChunkHandoff(context: HandlerContext): ExportChunkHandoff | undefined {
  return context.values.get(handoffKey);
}

/** Binary protocols whose messages travel in 5-byte envelopes (gRPC, gRPC-Web, Connect streams). */
const ENVELOPED_BINARY = new Set([
  'application/grpc',
  'application/grpc+proto',
  'application/grpc-web',
  'application/grpc-web+proto',
  'application/connect+proto',
]);

/** Data envelopes smaller than this are joined with their header (see frame()). */
export const COPY_BELOW_BYTES = 256 * 1024;
const ENVELOPE_HEADER_BYTES = 5;
/** Envelope flags: bit 0 compressed; anything else (trailer, end-stream) ends the stream. */
const FLAG_COMPRESSED = 0x01;
/** ArtifactChunk's `data` field (1), length-delimited. */
const DATA_FIELD = backupV1.ArtifactChunkSchema.field.data!;

/**
 * The envelope of an ArtifactChunk holding `data`, as one or two body chunks. A chunk of at least
 * COPY_BELOW_BYTES is passed on as the view it is: such a write exceeds every stream's high-water
 * mark, so connect waits for 'drain' (the bytes are out of Node's hands) before it asks for the
 * next message and the engine reuses the block. A smaller one may be buffered by Node after
 * connect moved on, so it is copied with its header.
 */
export function frame(data: Uint8Array): Uint8Array[] {
  const fieldHeader = new BinaryWriter()
    .tag(DATA_FIELD.number, WireType.LengthDelimited)
    .uint32(data.length)
    .finish();
  const headerLength = ENVELOPE_HEADER_BYTES + fieldHeader.length;
  const small = data.length < COPY_BELOW_BYTES;
  const head = new Uint8Array(headerLength + (small ? data.length : 0));
  new DataView(head.buffer).setUint32(1, fieldHeader.length + data.length);
  head.set(fieldHeader, ENVELOPE_HEADER_BYTES);
  if (small) {
    head.set(data, headerLength);
    return [head];
  }
  return [head, data];
}

function isEmptyMessageEnvelope(chunk: Uint8Array): boolean {
  return (
    chunk.length === ENVELOPE_HEADER_BYTES &&
    chunk[0] === 0 &&
    chunk[1] === 0 &&
    chunk[2] === 0 &&
    chunk[3] === 0 &&
    chunk[4] === 0
  );
}

/** Replaces each placeholder envelope in connect's body with the chunk the handoff holds. */
export async function* framedBody(
  body: AsyncIterable<Uint8Array>,
  handoff: ExportChunkHandoff,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    if (!handoff.pending) {
      yield chunk;
      continue;
    }
    if (isEmptyMessageEnvelope(chunk)) {
      const data = handoff.take()!;
      if (data.length === 0) yield chunk;
      else yield* frame(data);
      continue;
    }
    const flags = chunk[0] ?? 0;
    if (chunk.length >= ENVELOPE_HEADER_BYTES && flags !== 0 && (flags & FLAG_COMPRESSED) === 0) {
      // A trailer or end-stream frame: the call ended (an error, a revoked credential) before the
      // message carrying the waiting chunk went out. The chunk is dropped with it.
      handoff.take();
      yield chunk;
      continue;
    }
    throw new ExportFramingError('a message other than the waiting chunk was written');
  }
}

function requestType(request: UniversalServerRequest): string {
  return (request.header.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Wraps ExportArtifact's handler in `router` so binary responses are framed by framedBody. */
export function frameExportChunksUncopied(router: ConnectRouter): void {
  const method = BackupControlService.method.exportArtifact;
  for (const [i, handler] of router.handlers.entries()) {
    if (handler.method !== method) continue;
    const framed = async (request: UniversalServerRequest): Promise<UniversalServerResponse> => {
      if (!ENVELOPED_BINARY.has(requestType(request))) return handler(request);
      const handoff = new ExportChunkHandoff();
      request.contextValues = (request.contextValues ?? createContextValues()).set(
        handoffKey,
        handoff,
      );
      const response = await handler(request);
      return response.body ? { ...response, body: framedBody(response.body, handoff) } : response;
    };
    router.handlers[i] = replacingHandler(handler, framed);
  }
}
