// The fuzzer's request generator: one random RPC path, protocol and listener per case, with a
// body that is broken in one of several ways. Every case says what a correct server answers:
// a gRPC status (never Internal or Unknown) or, for a content type no protocol speaks, HTTP 415.
import { gzipSync } from 'node:zlib';
import type { DescMethod } from '@bufbuild/protobuf';
import { envelope } from './raw-rpc.js';
import { encodeRandom, encodeWrongTypes } from './random-messages.js';
import type { SeededRandom } from './seeded-random.js';

export type Listener = 'http1' | 'h2c';

export interface FuzzCase {
  listener: Listener;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** What was done to the request, for the failure report. */
  label: string;
  expect: 'grpc-status' | 415;
}

type Framing = 'enveloped' | 'unary';
interface Protocol {
  contentType: string;
  framing: Framing;
  json: boolean;
  listeners: Listener[];
  /** Connect unary serves unary methods only; Connect streaming the others. */
  methods: 'unary' | 'streaming' | 'all';
}

const PROTOCOLS: Protocol[] = [
  {
    contentType: 'application/grpc',
    framing: 'enveloped',
    json: false,
    listeners: ['h2c'],
    methods: 'all',
  },
  {
    contentType: 'application/grpc+proto',
    framing: 'enveloped',
    json: false,
    listeners: ['h2c'],
    methods: 'all',
  },
  {
    contentType: 'application/grpc+json',
    framing: 'enveloped',
    json: true,
    listeners: ['h2c'],
    methods: 'all',
  },
  {
    contentType: 'application/grpc-web+proto',
    framing: 'enveloped',
    json: false,
    listeners: ['http1', 'h2c'],
    methods: 'all',
  },
  {
    contentType: 'application/grpc-web',
    framing: 'enveloped',
    json: false,
    listeners: ['http1'],
    methods: 'all',
  },
  {
    contentType: 'application/grpc-web+json',
    framing: 'enveloped',
    json: true,
    listeners: ['http1'],
    methods: 'all',
  },
  {
    contentType: 'application/proto',
    framing: 'unary',
    json: false,
    listeners: ['http1', 'h2c'],
    methods: 'unary',
  },
  {
    contentType: 'application/json',
    framing: 'unary',
    json: true,
    listeners: ['http1', 'h2c'],
    methods: 'unary',
  },
  {
    contentType: 'application/connect+proto',
    framing: 'enveloped',
    json: false,
    listeners: ['http1', 'h2c'],
    methods: 'streaming',
  },
  {
    contentType: 'application/connect+json',
    framing: 'enveloped',
    json: true,
    listeners: ['http1'],
    methods: 'streaming',
  },
];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/grpc-webx',
  'image/png',
];

const JSON_GARBAGE = [
  '{',
  '[]',
  'null',
  '"text"',
  '{"treeId": 5}',
  '{"treeId": {"nested": true}}',
  '{"pageSize": "many"}',
  '{"pageSize": 1e400}',
  '{"labels": [1, 2]}',
  '{"scope": "orders"}',
  '{"unknownField": 1, "treeId": "orders"}',
  '{"mode": "NOT_A_MODE"}',
  '{"mode": 99999999999}',
  '{"valueJson": null, "key": []}',
  `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  '\u0000\u0001\u0002',
];

function mutate(bytes: Uint8Array, rng: SeededRandom): Uint8Array {
  const out = [...bytes];
  for (let n = 1 + rng.int(4); n > 0; n--) {
    const at = rng.int(out.length + 1);
    switch (rng.int(4)) {
      case 0:
        if (out.length > 0) out[at % out.length] = rng.int(256);
        break;
      case 1:
        out.splice(at, 0, rng.int(256));
        break;
      case 2:
        out.splice(at, 1);
        break;
      default:
        out.length = Math.min(out.length, at);
    }
  }
  return new Uint8Array(out);
}

function payloadOf(
  protocol: Protocol,
  method: DescMethod,
  rng: SeededRandom,
): [Uint8Array, string] {
  if (protocol.json) {
    return rng.chance(0.5)
      ? [new TextEncoder().encode(rng.pick(JSON_GARBAGE)), 'wrong JSON']
      : [rng.bytes(rng.int(64)), 'random bytes as JSON'];
  }
  switch (rng.int(4)) {
    case 0:
      return [rng.bytes(rng.int(128)), 'random payload'];
    case 1:
      return [mutate(encodeRandom(method.input, rng), rng), 'mutated valid message'];
    case 2:
      return [encodeWrongTypes(method.input, rng), 'wrong wire types'];
    default:
      return [encodeRandom(method.input, rng), 'random valid message'];
  }
}

/** One random malformed request to one of `methods`; `readMaxBytes` sizes the huge lengths. */
export function malformedRequest(
  rng: SeededRandom,
  methods: readonly DescMethod[],
  token: string | undefined,
  readMaxBytes: number,
): FuzzCase {
  const method = rng.pick(methods);
  const unary = method.methodKind === 'unary';
  // Bidi streams need HTTP/2: over HTTP/1.1 connect answers 505 before any RPC protocol runs.
  const bidi = method.methodKind === 'bidi_streaming';
  const protocol = rng.pick(
    PROTOCOLS.filter((p) => p.methods === 'all' || (p.methods === 'unary') === unary).filter(
      (p) => !bidi || p.listeners.includes('h2c'),
    ),
  );
  const listener: Listener = bidi ? 'h2c' : rng.pick(protocol.listeners);
  const path = `/${method.parent.typeName}/${method.name}`;
  const headers: Record<string, string> = { 'content-type': protocol.contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  if (protocol.framing === 'unary') headers['connect-protocol-version'] = '1';
  const result = (body: Uint8Array, label: string): FuzzCase => ({
    listener,
    path,
    headers,
    body,
    label: `${protocol.contentType} ${label}`,
    expect: 'grpc-status',
  });

  const [payload, what] = payloadOf(protocol, method, rng);
  const roll = rng.int(100);
  if (roll < 5) {
    headers['content-type'] = rng.pick(WRONG_CONTENT_TYPES);
    return { ...result(payload, `→ ${headers['content-type']}`), expect: 415 };
  }
  if (protocol.framing === 'unary') {
    if (roll < 15) {
      headers['content-encoding'] = 'gzip';
      return result(rng.chance(0.5) ? payload : gzipSync(payload).subarray(0, 12), `gzip garbage`);
    }
    if (roll < 20) {
      headers['content-encoding'] = 'zstd';
      return result(payload, 'unsupported encoding');
    }
    return result(payload, what);
  }
  if (roll < 30) return result(rng.bytes(rng.int(64)), 'random bytes, no framing');
  if (roll < 40) {
    // The frame announces more than arrives: the body ends mid-message or mid-header.
    const framed = envelope(0, payload, payload.length + 1 + rng.int(1000));
    return result(framed.subarray(0, rng.int(framed.length + 1)), `truncated frame, ${what}`);
  }
  if (roll < 50) {
    const declared = rng.pick([0xffffffff, 0x7fffffff, readMaxBytes + 1, readMaxBytes * 4]);
    return result(envelope(0, payload, declared), `declared length ${declared}`);
  }
  if (roll < 58) {
    if (rng.chance(0.5)) headers['grpc-encoding'] = 'gzip';
    const data = rng.chance(0.5) ? payload : gzipSync(payload).subarray(0, 10);
    return result(
      envelope(1, data),
      `compressed flag, ${headers['grpc-encoding'] ?? 'no encoding'}`,
    );
  }
  if (roll < 62) {
    headers['grpc-encoding'] = rng.pick(['zstd', 'snappy', 'identity, gzip']);
    return result(envelope(0, payload), `encoding ${headers['grpc-encoding']}`);
  }
  if (roll < 68) {
    const flags = rng.pick([0x02, 0x80, 0x7e, 0xff]);
    return result(envelope(flags, payload), `flags 0x${flags.toString(16)}, ${what}`);
  }
  if (roll < 73) {
    return result(Buffer.concat([envelope(0, payload), envelope(0, payload)]), `two messages`);
  }
  if (roll < 76) return result(new Uint8Array(0), 'empty body');
  if (roll < 80 && token) {
    headers.authorization = rng.pick(['Bearer', 'Bearer \u00ff', `Basic ${token}`, 'Bearer a b']);
    return result(envelope(0, payload), `bad credential, ${what}`);
  }
  return result(envelope(0, payload), what);
}
