// proxy/envoy.yaml keeps the facts the console relies on (edge-facts.ts); `npm test` runs the real
// `envoy --mode validate` for everything Envoy itself checks. Each variant below differs from the
// shipped file by one edit, so each fact is shown to be able to fail.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { edgeFactProblems } from './edge-facts.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const envoyYaml = readFileSync(`${root}proxy/envoy.yaml`, 'utf8');

/** Every package of proto/store with a service, and the health service Envoy checks. */
function rpcPackages(): string[] {
  const dir = `${root}proto/store`;
  const packages = readdirSync(dir).flatMap((api) =>
    readdirSync(`${dir}/${api}/v1`)
      .map((file) => readFileSync(`${dir}/${api}/v1/${file}`, 'utf8'))
      .filter((text) => /^service /m.test(text))
      .map((text) => /^package ([\w.]+);/m.exec(text)![1]!),
  );
  return [...new Set(packages), 'grpc.health.v1'];
}

/** The servers' STORE_MAX_MESSAGE_BYTES in docker-compose.yml, beside this Envoy. */
function composeMaxMessageBytes(): number {
  const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  const values = Object.entries(compose.services)
    .filter(([name]) => name.startsWith('server-'))
    .map(([, service]) => Number(service.environment?.['STORE_MAX_MESSAGE_BYTES']));
  expect(values.length).toBeGreaterThanOrEqual(2);
  expect(new Set(values).size).toBe(1);
  return values[0]!;
}

const expectations = { maxMessageBytes: composeMaxMessageBytes(), rpcPackages: rpcPackages() };

type Node = Record<string | number, unknown>;
function at(data: unknown, ...path: (string | number)[]): Node {
  return path.reduce<Node>((node, key) => node[key] as Node, data as Node);
}
const HCM = ['static_resources', 'listeners', 0, 'filter_chains', 0, 'filters', 0, 'typed_config'];
const VHOST = [...HCM, 'route_config', 'virtual_hosts', 0];
const CORS = [...VHOST, 'typed_per_filter_config', 'envoy.filters.http.cors'];
const GRPC = ['static_resources', 'clusters', 0];
const GRPC_OPTIONS = [
  ...GRPC,
  'typed_extension_protocol_options',
  'envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
];

/** The facts the shipped file breaks after one edit (a fresh parse: no shared aliases). */
function variant(edit: (config: unknown) => void): string {
  const config: unknown = parse(envoyYaml);
  edit(config);
  return edgeFactProblems(config, expectations).join('\n');
}

describe('proxy/envoy.yaml', () => {
  it('keeps every fact the console relies on', () => {
    expect(expectations.rpcPackages.length).toBeGreaterThanOrEqual(5);
    expect(edgeFactProblems(parse(envoyYaml), expectations)).toEqual([]);
  });

  it.each<[string, (c: unknown) => void, RegExp]>([
    [
      'the router before grpc_web',
      (c) => (at(c, ...HCM, 'http_filters') as unknown as unknown[]).reverse(),
      /grpc_web, cors, router \(in that order\), not .*Router, .*Cors, .*GrpcWeb/,
    ],
    [
      'no cors filter',
      (c) => void (at(c, ...HCM, 'http_filters') as unknown as unknown[]).splice(1, 1),
      /HTTP filters must be grpc_web, cors, router/,
    ],
    [
      'the active-tenant and credential headers not allowed',
      (c) => void (at(c, ...CORS)['allow_headers'] = 'content-type, x-grpc-web, x-user-agent'),
      /allow_headers lacks grpc-timeout, authorization, store-active-tenant/,
    ],
    [
      'grpc-message not exposed',
      (c) => void (at(c, ...CORS)['expose_headers'] = 'grpc-status, grpc-status-details-bin'),
      /expose_headers lacks grpc-message$/,
    ],
    [
      'a wildcard origin',
      (c) => void (at(c, ...CORS)['allow_origin_string_match'] = [{ safe_regex: { regex: '.*' } }]),
      /origin matcher accepts any origin/,
    ],
    [
      'the literal "*" origin',
      (c) => void (at(c, ...CORS)['allow_origin_string_match'] = [{ exact: '*' }]),
      /origin matcher accepts any origin/,
    ],
    [
      'cookies allowed',
      (c) => void (at(c, ...CORS)['allow_credentials'] = true),
      /must not allow credentials/,
    ],
    [
      'the admin API on every interface',
      (c) => void (at(c, 'admin', 'address', 'socket_address')['address'] = '0.0.0.0'),
      /admin API .* 127\.0\.0\.1/,
    ],
    [
      "Envoy's 15 s default route timeout on an RPC route",
      (c) => void delete at(c, ...VHOST, 'routes', 0, 'route')['timeout'],
      /route \/store\.backup\.v1\.: gRPC routes need timeout: 0s/,
    ],
    [
      'no grpc_timeout_header_max',
      (c) => void delete at(c, ...VHOST, 'routes', 2, 'route')['max_stream_duration'],
      /route \/store\.data\.v1\.: grpc_timeout_header_max/,
    ],
    [
      'an RPC package routed to the SPA',
      (c) =>
        void (at(c, ...VHOST, 'routes', 4)['route'] = { cluster: 'store_http', timeout: '0s' }),
      /no route sends \/store\.insight\.v1\.\* to store_grpc/,
    ],
    [
      'a retry of requests a replica may have run',
      (c) =>
        void (at(c, ...VHOST, 'routes', 0, 'route', 'retry_policy')['retry_on'] =
          'connect-failure,5xx,unavailable'),
      /route \/store\.backup\.v1\.: retries 5xx, unavailable/,
    ],
    [
      'the default 5 min stream idle timeout',
      (c) => void delete at(c, ...HCM)['stream_idle_timeout'],
      /stream_idle_timeout must be ≥ 3600s/,
    ],
    [
      'a short upstream idle timeout',
      (c) => void (at(c, ...GRPC_OPTIONS, 'common_http_protocol_options')['idle_timeout'] = '300s'),
      /upstream idle_timeout cuts quiet streams/,
    ],
    [
      'HTTP/1.1 to the gRPC port',
      (c) => void (at(c, ...GRPC_OPTIONS)['explicit_http_config'] = { http_protocol_options: {} }),
      /store_grpc must speak HTTP\/2 upstream/,
    ],
    [
      'an upstream buffer smaller than one message',
      (c) => void (at(c, ...GRPC)['per_connection_buffer_limit_bytes'] = 4 * 1024 * 1024),
      /per_connection_buffer_limit_bytes \(4194304\) must hold one STORE_MAX_MESSAGE_BYTES \(4194304\)/,
    ],
    [
      'the catch-all route not last',
      (c) => void (at(c, ...VHOST)['routes'] as unknown as unknown[]).reverse(),
      /the last route must send \/ .* to store_http/,
    ],
  ])('fails with %s', (_name, edit, expected) => {
    expect(variant(edit)).toMatch(expected);
  });
});
