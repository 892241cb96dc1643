// proxy/envoy.yaml loads the way Envoy would load it, and each classic mistake is caught for
// the right reason. Variants are made by editing the parsed YAML of the real file, so every
// failure below differs from a passing config by exactly one change.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkEnvoyConfig, checkEnvoyYaml, formatProblem } from './check.js';
import type { Problem } from './check.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const envoyYaml = readFileSync(new URL('../envoy.yaml', import.meta.url), 'utf8');

type Node = Record<string | number, unknown>;
function at(data: unknown, ...path: (string | number)[]): Node {
  return path.reduce<Node>((node, key) => node[key] as Node, data as Node);
}
const HCM = ['static_resources', 'listeners', 0, 'filter_chains', 0, 'filters', 0, 'typed_config'];
const VHOST = [...HCM, 'route_config', 'virtual_hosts', 0];
const CORS = [...VHOST, 'typed_per_filter_config', 'envoy.filters.http.cors'];

/** Problems of the real config after one edit. */
function variant(edit: (config: unknown) => void): Problem[] {
  const config: unknown = parse(envoyYaml);
  edit(config);
  return checkEnvoyConfig(config);
}
const messages = (problems: Problem[]) => problems.map(formatProblem).join('\n');

describe('proxy/envoy.yaml', () => {
  it('loads against the Envoy v3 API with no problem', () => {
    expect(messages(checkEnvoyYaml(envoyYaml))).toBe('');
  });

  it('still loads with the TLS transport_socket shown in docs/deployment.md', () => {
    const doc = readFileSync(`${root}docs/deployment.md`, 'utf8');
    const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((text) => text.includes('transport_socket'));
    const snippet = at(parse(block!), 'filter_chains', 0);
    const problems = variant((c) => {
      at(c, 'static_resources', 'listeners', 0, 'filter_chains', 0)['transport_socket'] =
        snippet['transport_socket'];
    });
    expect(messages(problems)).toBe('');
  });

  it('routes every RPC package of proto/ to the gRPC cluster', () => {
    const routes = at(parse(envoyYaml), ...VHOST, 'routes') as unknown as Node[];
    const grpcPrefixes = routes
      .filter((r) => at(r, 'route')['cluster'] === 'store_grpc')
      .map((r) => at(r, 'match')['prefix']);
    const protoDir = `${root}proto/store`;
    const packages = readdirSync(protoDir).flatMap((dir) =>
      readdirSync(`${protoDir}/${dir}/v1`)
        .map((f) => readFileSync(`${protoDir}/${dir}/v1/${f}`, 'utf8'))
        .filter((text) => /^service /m.test(text))
        .map((text) => /^package ([\w.]+);/m.exec(text)![1]),
    );
    expect(packages.length).toBeGreaterThanOrEqual(4);
    for (const pkg of packages) expect(grpcPrefixes).toContain(`/${pkg}.`);
    expect(grpcPrefixes).toContain('/grpc.health.v1.');
  });
});

describe('the checker rejects', () => {
  it('a v2 @type', () => {
    const problems = variant((c) => {
      at(c, ...HCM)['@type'] =
        'type.googleapis.com/envoy.config.filter.network.http_connection_manager.v2.HttpConnectionManager';
    });
    expect(messages(problems)).toMatch(/unknown @type .*v2 API type/);
  });

  it('v2 `config:` instead of typed_config', () => {
    const problems = variant((c) => {
      const filter = at(c, ...HCM, 'http_filters', 0);
      filter['config'] = {};
      delete filter['typed_config'];
    });
    expect(messages(problems)).toMatch(
      /http_filters\[0\]\.config: unknown field "config".*typed_config/,
    );
  });

  it('a whole v2-era config (fixture)', () => {
    const text = readFileSync(new URL('fixtures/v2-era.yaml', import.meta.url), 'utf8');
    const found = messages(checkEnvoyYaml(text));
    expect(found).toMatch(/unknown field "config"/);
    expect(found).toMatch(/"logical_dns" is not a value .*LOGICAL_DNS/);
    expect(found).toMatch(/clusters\[0\]\.hosts: unknown field "hosts"/);
  });

  it('a typo in an @type', () => {
    const problems = variant((c) => {
      at(c, ...HCM, 'http_filters', 1, 'typed_config')['@type'] =
        'type.googleapis.com/envoy.extensions.filters.http.cors.v3.Corz';
    });
    expect(messages(problems)).toMatch(
      /http_filters\[1\]\.typed_config: unknown @type .*Corz.*typo/,
    );
  });

  it('a route to a missing cluster', () => {
    const problems = variant((c) => {
      at(c, ...VHOST, 'routes', 0, 'route')['cluster'] = 'store_grcp';
    });
    expect(messages(problems)).toMatch(
      /routes\[0\]\.route\.cluster: route: unknown cluster 'store_grcp'/,
    );
  });

  it('a lowercase enum value', () => {
    const problems = variant((c) => {
      at(c, 'static_resources', 'clusters', 1)['lb_policy'] = 'round_robin';
    });
    expect(messages(problems)).toMatch(
      /clusters\[1\]\.lb_policy: "round_robin" is not a value of enum envoy\.config\.cluster\.v3\.Cluster\.LbPolicy \(enum values are upper case: ROUND_ROBIN\)/,
    );
  });

  it('the deprecated route-level cors field', () => {
    const problems = variant((c) => {
      // The v2-style route CorsPolicy has the same fields as the filter's, minus the Any.
      const { '@type': _type, ...policy } = at(c, ...CORS);
      at(c, ...VHOST, 'routes', 5, 'route')['cors'] = policy;
    });
    expect(problems).toContainEqual(
      expect.objectContaining({
        kind: 'deprecated',
        message: expect.stringMatching(
          /field cors of envoy\.config\.route\.v3\.RouteAction is deprecated/,
        ),
      }),
    );
  });

  it('the router filter anywhere but last', () => {
    const problems = variant((c) => {
      const filters = at(c, ...HCM)['http_filters'] as unknown[];
      filters.unshift(filters.pop());
    });
    expect(messages(problems)).toMatch(
      /http_filters\[0\]: terminal filter named envoy\.filters\.http\.router .*must be the last filter/,
    );
  });

  it('a typed_per_filter_config key naming no configured filter', () => {
    const problems = variant((c) => {
      const perFilter = at(c, ...VHOST, 'typed_per_filter_config');
      perFilter['envoy.filters.http.cors_policy'] = perFilter['envoy.filters.http.cors'];
      delete perFilter['envoy.filters.http.cors'];
    });
    expect(messages(problems)).toMatch(/no HTTP filter named "envoy\.filters\.http\.cors_policy"/);
  });

  it.each([
    [
      'a port above 65535',
      [
        'static_resources',
        'clusters',
        0,
        'load_assignment',
        'endpoints',
        0,
        'lb_endpoints',
        0,
        'endpoint',
        'address',
        'socket_address',
      ],
      'port_value',
      70000,
      /port_value: must be <= 65535, got 70000/,
    ],
    [
      'an empty cluster name',
      ['static_resources', 'clusters', 0],
      'name',
      '',
      /clusters\[0\]\.name: must not be empty/,
    ],
    [
      'a zero connect_timeout',
      ['static_resources', 'clusters', 0],
      'connect_timeout',
      '0s',
      /connect_timeout: must be > 0s/,
    ],
    [
      'an undefined enum number',
      ['static_resources', 'clusters', 0],
      'lb_policy',
      99,
      /99 is not a defined enum value/,
    ],
    ['no virtual host domains', VHOST, 'domains', [], /domains: must not be empty/],
    [
      'a header name with a space',
      [...HCM, 'route_config'],
      'response_headers_to_add',
      [{ header: { key: 'x bad', value: '1' } }],
      /must be an HTTP header name/,
    ],
  ])('a PGV rule violation: %s', (_name, path, key, value, expected) => {
    expect(messages(variant((c) => void (at(c, ...path)[key] = value)))).toMatch(expected);
  });

  it('a missing required oneof (HCM without any route table)', () => {
    const problems = variant((c) => void delete at(c, ...HCM)['route_config']);
    expect(messages(problems)).toMatch(
      /exactly one of rds, route_config, scoped_routes.* is required/,
    );
  });

  it('a deprecated cluster field (v2-style http2_protocol_options)', () => {
    const problems = variant(
      (c) => void (at(c, 'static_resources', 'clusters', 0)['http2_protocol_options'] = {}),
    );
    expect(messages(problems)).toMatch(/deprecated: .*clusters\[0\]\.http2_protocol_options/);
  });

  it('gRPC health checks on the HTTP/1.1 cluster, and duplicate cluster names', () => {
    const problems = variant((c) => {
      const http = at(c, 'static_resources', 'clusters', 1);
      at(http, 'health_checks', 0)['grpc_health_check'] = {};
      delete at(http, 'health_checks', 0)['http_health_check'];
      at(c, 'static_resources', 'clusters', 0)['name'] = 'store_http';
    });
    expect(messages(problems)).toMatch(/must support HTTP\/2 for gRPC health checking/);
    expect(messages(problems)).toMatch(/duplicate cluster name "store_http"/);
  });

  it('policy: a wildcard origin, a public admin port, a gRPC route under the 15 s default', () => {
    const problems = variant((c) => {
      at(c, ...CORS)['allow_origin_string_match'] = [{ safe_regex: { regex: 'https://.*' } }];
      at(c, 'admin', 'address', 'socket_address')['address'] = '0.0.0.0';
      delete at(c, ...VHOST, 'routes', 1, 'route')['timeout'];
    });
    const found = messages(problems);
    expect(found).toMatch(
      /policy: .*allow_origin_string_match\[0\]: origin matcher accepts any origin/,
    );
    expect(found).toMatch(/policy: admin\.address: .*127\.0\.0\.1/);
    expect(found).toMatch(/policy: .*routes\[1\]\.route\.timeout: gRPC routes need timeout: 0s/);
  });
});

describe('cli', () => {
  const cli = (file: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'proxy/check/cli.ts', file], {
      cwd: root,
      encoding: 'utf8',
    });

  it('prints OK for proxy/envoy.yaml and the problems (exit 1) for a bad file', () => {
    const good = cli('proxy/envoy.yaml');
    expect(good.stdout).toContain('proxy/envoy.yaml: OK');
    expect(good.status).toBe(0);
    const bad = cli('proxy/check/fixtures/v2-era.yaml');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/decode: .*unknown field "config"/);
  });
});
