// This deployment's own rules (docs/deployment.md): Envoy would load a config that breaks them,
// but the console would be unsafe or broken behind it.
import type { Problem } from './problem.js';
import {
  T,
  anyType,
  arr,
  clusterSpeaksHttp2,
  connectionManagers,
  durationSeconds,
  obj,
  routesOf,
  str,
} from './json.js';
import type { J } from './json.js';

/** Headers the console sends (gRPC-Web, Connect, auth, tenant) and must be allowed to send. */
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
/** Trailers-as-headers the browser must be able to read to see a gRPC error. */
export const REQUIRED_EXPOSE_HEADERS = ['grpc-status', 'grpc-message', 'grpc-status-details-bin'];
const HOSTILE_ORIGIN = 'https://attacker.invalid';
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Does an envoy.type.matcher.v3.StringMatcher (canonical JSON) accept `s`? */
export function stringMatcherAccepts(m: J, s: string): boolean {
  const fold = m['ignore_case'] === true;
  const v = fold ? s.toLowerCase() : s;
  const arg = (k: string) => (fold ? str(m[k])?.toLowerCase() : str(m[k]));
  if (arg('exact') !== undefined) return arg('exact') === v;
  if (arg('prefix') !== undefined) return v.startsWith(arg('prefix')!);
  if (arg('suffix') !== undefined) return v.endsWith(arg('suffix')!);
  if (arg('contains') !== undefined) return v.includes(arg('contains')!);
  const regex = str(obj(m['safe_regex'])['regex']);
  if (regex !== undefined) {
    try {
      return new RegExp(`^(?:${regex})$`, fold ? 'i' : '').test(s); // RE2 safe_regex: full match
    } catch {
      return true; // unparseable here: assume the worst
    }
  }
  return false;
}

function checkCors(policy: J, at: string, add: (path: string, m: string) => void): void {
  const matchers = arr(policy['allow_origin_string_match']).map(obj);
  if (matchers.length === 0) add(at, 'CORS policy needs an explicit allow_origin_string_match');
  matchers.forEach((m, i) => {
    if (str(m['exact']) === '*' || stringMatcherAccepts(m, HOSTILE_ORIGIN)) {
      add(
        `${at}.allow_origin_string_match[${i}]`,
        `origin matcher accepts any origin (e.g. ${HOSTILE_ORIGIN}); list the console's origins`,
      );
    }
  });
  const list = (k: string) => (str(policy[k]) ?? '').split(',').map((h) => h.trim().toLowerCase());
  const missing = REQUIRED_ALLOW_HEADERS.filter((h) => !list('allow_headers').includes(h));
  if (missing.length) add(`${at}.allow_headers`, `missing ${missing.join(', ')}`);
  const hidden = REQUIRED_EXPOSE_HEADERS.filter((h) => !list('expose_headers').includes(h));
  if (hidden.length) add(`${at}.expose_headers`, `missing ${hidden.join(', ')}`);
}

export function checkPolicy(bootstrap: J): Problem[] {
  const out: Problem[] = [];
  const add = (path: string, message: string) => out.push({ kind: 'policy', path, message });
  const admin = obj(obj(obj(bootstrap['admin'])['address'])['socket_address']);
  if ('address' in admin && !LOOPBACK.has(str(admin['address']) ?? '')) {
    add('admin.address', 'the admin interface must listen on 127.0.0.1 only (it can stop Envoy)');
  }
  const resources = obj(bootstrap['static_resources']);
  if (arr(resources['listeners']).length === 0) {
    add('static_resources.listeners', 'no listener: this Envoy would accept no traffic');
  }
  const clusters = arr(resources['clusters']).map(obj);
  const h2 = new Set(clusters.filter(clusterSpeaksHttp2).map((c) => str(c['name'])));
  for (const hcm of connectionManagers(bootstrap)) {
    const names = hcm.filters.map((f) => f.name);
    names.forEach((name, i) => {
      const at = `${hcm.path}.http_filters[${i}]`;
      if (names.indexOf(name) !== i) add(at, `HTTP filter name "${name}" is used twice`);
      if (hcm.filters[i]!.type === '') add(at, 'each HTTP filter needs a typed_config');
    });
    const corsNames = new Set(hcm.filters.filter((f) => f.type === T.cors).map((f) => f.name));
    let grpcRoutes = 0;
    for (const { vhost, routes } of routesOf(hcm)) {
      for (const scope of [vhost, ...routes]) {
        for (const [key, value] of Object.entries(obj(scope.node['typed_per_filter_config']))) {
          const at = `${scope.path}.typed_per_filter_config["${key}"]`;
          const policy = anyType(value) === T.filterConfig ? obj(obj(value)['config']) : obj(value);
          if (corsNames.has(key) && anyType(policy) === T.corsPolicy) checkCors(policy, at, add);
        }
      }
      for (const route of routes) {
        const action = obj(route.node['route']);
        if (!h2.has(str(action['cluster']))) continue;
        grpcRoutes++;
        // Server streams (StreamBackups, ExportArtifact, StreamDeadLetters) outlive 15 s.
        if (durationSeconds(action['timeout']) !== 0) {
          add(
            `${route.path}.route.timeout`,
            'gRPC routes need timeout: 0s (Envoy cuts at 15 s by default)',
          );
        }
        if (!('grpc_timeout_header_max' in obj(action['max_stream_duration']))) {
          add(
            `${route.path}.route.max_stream_duration`,
            'gRPC routes need grpc_timeout_header_max so the grpc-timeout header bounds the call',
          );
        }
      }
    }
    const idle = durationSeconds(hcm.config['stream_idle_timeout']);
    if (grpcRoutes > 0 && (idle === undefined || (idle !== 0 && idle < 3600))) {
      add(
        `${hcm.path}.stream_idle_timeout`,
        'set stream_idle_timeout to at least 1h so long exports are not cut (default 5 min)',
      );
    }
  }
  return out;
}
