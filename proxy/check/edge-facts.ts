// What the console relies on in proxy/envoy.yaml that `envoy --mode validate` cannot know: Envoy
// accepts a config without CORS headers for the bearer token, with a 15 s cut on export streams
// or with an admin API on every interface. Each fact is named by the problem it prevents.
type Node = Record<string, unknown>;

const obj = (x: unknown): Node =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Node) : {};
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const typeOf = (x: unknown) => String(obj(x)['@type'] ?? '').replace(/^.*\//, '');
const csv = (x: unknown) =>
  String(x ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());

/** "3600s" → 3600; undefined when absent or not a plain seconds string. */
function seconds(x: unknown): number | undefined {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(String(x ?? ''));
  return m ? Number(m[1]) : undefined;
}

const HCM = 'envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
const FILTER_ORDER = [
  'envoy.extensions.filters.http.grpc_web.v3.GrpcWeb',
  'envoy.extensions.filters.http.cors.v3.Cors',
  'envoy.extensions.filters.http.router.v3.Router',
];
const CORS_POLICY = 'envoy.extensions.filters.http.cors.v3.CorsPolicy';
const HTTP_OPTIONS = 'envoy.extensions.upstreams.http.v3.HttpProtocolOptions';
/** Headers the console sends: gRPC-Web, Connect, the credential and the active tenant. */
export const REQUIRED_ALLOW_HEADERS = [
  'content-type',
  'x-grpc-web',
  'x-user-agent',
  'grpc-timeout',
  'authorization',
  'store-active-tenant',
  'connect-protocol-version',
  'connect-timeout-ms',
];
/** Trailers-as-headers the browser must read to see a gRPC error. */
export const REQUIRED_EXPOSE_HEADERS = ['grpc-status', 'grpc-message', 'grpc-status-details-bin'];
/** Failures where the request never reached a replica: safe to retry for every RPC. */
const UNSENT_RETRY_ON = new Set(['connect-failure', 'refused-stream', 'reset-before-request']);
const HOSTILE_ORIGIN = 'https://attacker.invalid';
/** gRPC's length-prefixed framing adds 5 bytes to each message. */
const GRPC_FRAME_HEADER = 5;
/** Exports and streams may go quiet between messages for up to this long. */
const LONG_IDLE_SECONDS = 3600;

export interface EdgeExpectations {
  /** The servers' STORE_MAX_MESSAGE_BYTES. */
  maxMessageBytes: number;
  /** Every gRPC package with a service (`store.backup.v1`, `grpc.health.v1`, …). */
  rpcPackages: string[];
}

/** Does an origin StringMatcher accept `origin`? (RE2 `safe_regex` is a full match.) */
function acceptsOrigin(m: Node, origin: string): boolean {
  const fold = m['ignore_case'] === true;
  const norm = (s: unknown) => (fold ? String(s).toLowerCase() : String(s));
  const value = norm(origin);
  if (m['exact'] !== undefined) return norm(m['exact']) === value;
  if (m['prefix'] !== undefined) return value.startsWith(norm(m['prefix']));
  if (m['suffix'] !== undefined) return value.endsWith(norm(m['suffix']));
  if (m['contains'] !== undefined) return value.includes(norm(m['contains']));
  const regex = obj(m['safe_regex'])['regex'];
  if (regex === undefined) return false;
  try {
    return new RegExp(`^(?:${String(regex)})$`, fold ? 'i' : '').test(origin);
  } catch {
    return true; // not parseable as a JavaScript regex: assume the worst
  }
}

function corsProblems(vhost: Node): string[] {
  const policy = obj(obj(vhost['typed_per_filter_config'])['envoy.filters.http.cors']);
  if (typeOf(policy) !== CORS_POLICY)
    return ['the virtual host has no CorsPolicy for the cors filter'];
  const out: string[] = [];
  const origins = arr(policy['allow_origin_string_match']).map(obj);
  if (origins.length === 0) out.push('CORS needs an explicit origin list');
  // Envoy allows every origin when a matcher accepts the literal "*".
  if (origins.some((m) => acceptsOrigin(m, HOSTILE_ORIGIN) || acceptsOrigin(m, '*'))) {
    out.push(`a CORS origin matcher accepts any origin (e.g. ${HOSTILE_ORIGIN})`);
  }
  const allowed = csv(policy['allow_headers']);
  const notAllowed = REQUIRED_ALLOW_HEADERS.filter((h) => !allowed.includes(h));
  if (notAllowed.length) out.push(`CORS allow_headers lacks ${notAllowed.join(', ')}`);
  const exposed = csv(policy['expose_headers']);
  const hidden = REQUIRED_EXPOSE_HEADERS.filter((h) => !exposed.includes(h));
  if (hidden.length) out.push(`CORS expose_headers lacks ${hidden.join(', ')}`);
  // The bearer token travels in a header; cookies would open the API to cross-site requests.
  if (policy['allow_credentials'] === true) out.push('CORS must not allow credentials (cookies)');
  return out;
}

function routeProblems(routes: Node[], rpcPackages: string[]): string[] {
  const out: string[] = [];
  const action = (r: Node) => obj(r['route']);
  for (const pkg of rpcPackages) {
    const route = routes.find((r) => obj(r['match'])['prefix'] === `/${pkg}.`);
    if (!route || action(route)['cluster'] !== 'store_grpc') {
      out.push(`no route sends /${pkg}.* to store_grpc`);
    }
  }
  for (const route of routes.filter((r) => action(r)['cluster'] === 'store_grpc')) {
    const a = action(route);
    const at = `route ${String(obj(route['match'])['prefix'])}`;
    // StreamBackups, ExportArtifact and StreamDeadLetters outlive Envoy's 15 s route default.
    if (seconds(a['timeout']) !== 0) out.push(`${at}: gRPC routes need timeout: 0s`);
    if (seconds(obj(a['max_stream_duration'])['grpc_timeout_header_max']) === undefined) {
      out.push(`${at}: grpc_timeout_header_max must let the client's grpc-timeout bound the call`);
    }
  }
  for (const route of routes) {
    const retryOn = csv(obj(action(route)['retry_policy'])['retry_on']).filter(Boolean);
    const unsafe = retryOn.filter((c) => !UNSENT_RETRY_ON.has(c));
    if (unsafe.length) {
      out.push(`route ${String(obj(route['match'])['prefix'])}: retries ${unsafe.join(', ')}`);
    }
  }
  const last = routes.at(-1);
  if (!last || obj(last['match'])['prefix'] !== '/' || action(last)['cluster'] !== 'store_http') {
    out.push('the last route must send / (the SPA, /healthz) to store_http');
  }
  return out;
}

function clusterProblems(clusters: Node[], maxMessageBytes: number): string[] {
  const grpc = clusters.find((c) => c['name'] === 'store_grpc');
  if (!grpc) return ['no store_grpc cluster'];
  const out: string[] = [];
  const options = obj(obj(grpc['typed_extension_protocol_options'])[HTTP_OPTIONS]);
  if (!('http2_protocol_options' in obj(options['explicit_http_config']))) {
    out.push('store_grpc must speak HTTP/2 upstream (explicit_http_config.http2_protocol_options)');
  }
  const idle = seconds(obj(options['common_http_protocol_options'])['idle_timeout']);
  if (idle !== undefined && idle !== 0 && idle < LONG_IDLE_SECONDS) {
    out.push(`store_grpc's upstream idle_timeout cuts quiet streams before ${LONG_IDLE_SECONDS}s`);
  }
  const buffer = Number(grpc['per_connection_buffer_limit_bytes'] ?? 1024 * 1024);
  if (buffer < maxMessageBytes + GRPC_FRAME_HEADER) {
    out.push(
      `store_grpc's per_connection_buffer_limit_bytes (${buffer}) must hold one ` +
        `STORE_MAX_MESSAGE_BYTES (${maxMessageBytes}) message and its frame header`,
    );
  }
  return out;
}

/** Every product fact proxy/envoy.yaml (parsed YAML) breaks; none for the shipped file. */
export function edgeFactProblems(config: unknown, expect: EdgeExpectations): string[] {
  const out: string[] = [];
  const admin = obj(obj(obj(config)['admin'])['address'])['socket_address'];
  if (obj(admin)['address'] !== '127.0.0.1') {
    out.push('the admin API (it can stop Envoy) must listen on 127.0.0.1 only');
  }
  const resources = obj(obj(config)['static_resources']);
  const managers = arr(resources['listeners'])
    .flatMap((l) => arr(obj(l)['filter_chains']))
    .flatMap((chain) => arr(obj(chain)['filters']))
    .map((f) => obj(obj(f)['typed_config']))
    .filter((typed) => typeOf(typed) === HCM);
  if (managers.length === 0) out.push('no HTTP connection manager');
  for (const hcm of managers) {
    const filters = arr(hcm['http_filters']).map((f) => typeOf(obj(f)['typed_config']));
    if (filters.join() !== FILTER_ORDER.join()) {
      out.push(
        `HTTP filters must be grpc_web, cors, router (in that order), not ${filters.join(', ')}`,
      );
    }
    const idle = seconds(hcm['stream_idle_timeout']);
    if (idle === undefined || (idle !== 0 && idle < LONG_IDLE_SECONDS)) {
      out.push(`stream_idle_timeout must be ≥ ${LONG_IDLE_SECONDS}s (default 5 min cuts exports)`);
    }
    for (const vhost of arr(obj(hcm['route_config'])['virtual_hosts']).map(obj)) {
      out.push(...corsProblems(vhost));
      out.push(...routeProblems(arr(vhost['routes']).map(obj), expect.rpcPackages));
    }
  }
  out.push(...clusterProblems(arr(resources['clusters']).map(obj), expect.maxMessageBytes));
  return out;
}
