// The HTTP-level half of the request fuzzer: request targets, methods and headers broken the way
// a hostile client would break them, for either listener. The body half (malformed-requests.ts)
// sends well-formed HTTP carrying broken RPC payloads; this one breaks the HTTP itself, and
// reaches the static-files fallback and the health endpoint too.
import type { SeededRandom } from './seeded-random.js';

export interface HttpFuzzCase {
  listener: 'http1' | 'h2c';
  method: string;
  /** The request target exactly as sent (not encoded or checked by any client). */
  target: string;
  /** Header lines (http1, sent raw: names and values may be invalid) or pairs (h2c). */
  headers: Array<[string, string]>;
  /** When false the case leaves out Host / :authority. */
  withHost: boolean;
  /** HTTP/1.0 (http1 only): the one version where a request without Host is well-formed. */
  http10: boolean;
  body: Buffer;
  label: string;
}

const RPC_PATHS = [
  '/store.identity.v1.IdentityService/WhoAmI',
  '/store.backup.v1.BackupControlService/GetBackupCatalog',
  '/store.backup.v1.BackupControlService/ExportArtifact',
  '/store.data.v1.TreeDataService/PutEntry',
  '/store.schema.v1.SchemaControlService/SetPolicy',
  '/grpc.health.v1.Health/Check',
];
const PLAIN_PATHS = ['/', '/healthz', '/index.html', '/assets/x.js', '/backups', '/favicon.ico'];

const BAD_ESCAPES = [
  '%E0',
  '%',
  '%G1',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%E0%A4%A',
  '%%',
  '%0',
  '%u0041',
];
const TRAVERSALS = ['/../../etc/passwd', '/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/x', '/./.././'];
const ODD_TARGETS = [
  '//',
  '///',
  '//evil.example/x',
  '*',
  'http://evil.example/',
  'x',
  '/\\x',
  '/?',
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND'];
const ODD_METHODS = ['get', 'Post', 'M-SEARCH', 'X'.repeat(40), 'BREW', 'CONNECT', 'QUERY'];

const CONTENT_TYPES = [
  'application/grpc',
  'application/grpc-web+proto',
  'application/proto',
  'application/json',
  'application/connect+proto',
  'text/html',
  'application/grpc-web; charset=\u00ff',
  '',
];

/** Host values: valid, rebinding-style foreign names, and ones no URL parser accepts. */
const HOSTS = [
  'localhost',
  '127.0.0.1',
  'evil.example',
  'a b',
  '[::1',
  '[::1]:99999',
  'user:pw@localhost',
  '%',
  'localhost:x',
  '\u00e9xample',
  '..',
  'h'.repeat(300),
  '',
];

/** Header mutations that stay sendable over HTTP/2 (names lower-case tokens, no CR/LF/NUL). */
function semanticHeader(rng: SeededRandom): [string, string] {
  switch (rng.int(9)) {
    case 0:
      return ['content-type', rng.pick(CONTENT_TYPES)];
    case 1:
      return [
        'authorization',
        rng.pick(['Bearer', 'Bearer %E0', 'Basic ::', 'Bearer ' + 'a'.repeat(2000)]),
      ];
    case 2:
      return ['grpc-timeout', rng.pick(['-1S', '99999999999H', 'xS', '1', ''])];
    case 3:
      return ['connect-protocol-version', rng.pick(['2', '', 'x'])];
    case 4:
      return ['store-active-tenant', rng.pick(['..', '%E0', '\u00ff', 'a'.repeat(500), ''])];
    case 5:
      return ['content-encoding', rng.pick(['gzip', 'br', 'zstd', 'gzip, gzip', 'x'])];
    case 6:
      return ['accept-encoding', rng.pick(['*', 'gzip;q=x', ','.repeat(200)])];
    case 7:
      return ['x-forwarded-for', rng.pick(['::', '1.1.1.1, %E0', 'x'.repeat(1000)])];
    default:
      return ['grpc-encoding', rng.pick(['identity', 'gzip', 'x', ''])];
  }
}

/** Header lines only HTTP/1.1's raw wire can carry: invalid names, control bytes, framing fights. */
function rawHeader(rng: SeededRandom): Array<[string, string]> {
  switch (rng.int(8)) {
    case 0:
      return [['bad header', 'x']];
    case 1:
      return [['x-ctl', `a\u0001b\u007f`]];
    case 2:
      return [['content-length', rng.pick(['-1', 'x', '1e3', '99999999999999999999'])]];
    case 3:
      return [
        ['content-length', '1'],
        ['content-length', '2'],
      ];
    case 4:
      return [
        ['transfer-encoding', 'chunked'],
        ['content-length', '3'],
      ];
    case 5:
      return [['transfer-encoding', rng.pick(['gzip', 'chunked, x', 'identity'])]];
    case 6:
      return [[':authority', 'x']];
    default:
      return [['x-long', 'v'.repeat(rng.pick([100, 20_000]))]];
  }
}

function randomTarget(rng: SeededRandom): [string, string] {
  const base = rng.chance(0.5) ? rng.pick(RPC_PATHS) : rng.pick(PLAIN_PATHS);
  switch (rng.int(8)) {
    case 0:
      return [`/${rng.pick(BAD_ESCAPES)}`, 'bad escape at root'];
    case 1:
      return [`${base}${rng.pick(BAD_ESCAPES)}`, 'bad escape after a path'];
    case 2:
      return [`${base}?${rng.pick(BAD_ESCAPES)}=${rng.pick(BAD_ESCAPES)}`, 'bad escape in query'];
    case 3:
      return [rng.pick(TRAVERSALS), 'traversal'];
    case 4:
      return [rng.pick(ODD_TARGETS), 'odd target form'];
    case 5: {
      const bytes = Array.from({ length: 1 + rng.int(6) }, () => {
        const byte = 0x80 + rng.int(0x80);
        return `%${byte.toString(16).toUpperCase()}`;
      });
      return [`/${bytes.join('')}`, 'random high bytes'];
    }
    case 6:
      return [`/${'a/'.repeat(rng.pick([10, 2000, 5000]))}`, 'long path'];
    default:
      return [`${base}${rng.pick(['/', '//', '%2F', '/%00', '.', '#x'])}`, 'rpc path with junk'];
  }
}

/** One malformed request for either listener. */
export function malformedHttpRequest(rng: SeededRandom): HttpFuzzCase {
  const listener = rng.chance(0.6) ? 'http1' : 'h2c';
  const [target, targetLabel] = randomTarget(rng);
  const method = rng.chance(0.8) ? rng.pick(METHODS) : rng.pick(ODD_METHODS);
  const headers: Array<[string, string]> = [];
  for (let n = rng.int(4); n > 0; n--) headers.push(semanticHeader(rng));
  if (listener === 'http1' && rng.chance(0.3)) headers.push(...rawHeader(rng));
  let withHost = true;
  const hostRoll = rng.int(10);
  if (hostRoll === 0) withHost = false;
  else if (hostRoll < 4) headers.push(['host', rng.pick(HOSTS)]);
  const body = rng.chance(0.5) ? Buffer.alloc(0) : Buffer.from(rng.bytes(rng.int(40)));
  const hostLabel = withHost ? headers.find(([n]) => n === 'host')?.[1] : 'no host';
  return {
    listener,
    method,
    target,
    headers,
    withHost,
    http10: listener === 'http1' && !withHost && rng.chance(0.5),
    body,
    label: `${listener} ${method} ${targetLabel} ${JSON.stringify(target.slice(0, 60))} host=${JSON.stringify(hostLabel?.slice(0, 40))}`,
  };
}
