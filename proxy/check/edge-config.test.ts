// Issue 15: `npm run edge` and the edge tests run proxy/envoy.yaml itself; only addresses and
// ports are substituted. This proves nothing else differs from the shipped file.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { edgeEnvoyConfig, ENVOY_YAML, reflectionSetting } from '../../scripts/edge/envoy-config.js';

/** Every leaf of a JSON value as `path = value`. */
function leaves(value: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [p, v] of leaves(child, `${path}/${key}`)) out.set(p, v);
    }
  } else out.set(path, value);
  return out;
}

const ADDRESSES = {
  listenPort: 18080,
  adminPort: 19901,
  replicas: [
    { grpcPort: 50061, httpPort: 8061 },
    { grpcPort: 50062, httpPort: 8062 },
  ],
};

const ROUTES =
  '/static_resources/listeners/0/filter_chains/0/filters/0/typed_config/route_config/virtual_hosts/0/routes';

describe('the edge config is proxy/envoy.yaml with local addresses', () => {
  it('differs from the shipped file only in socket addresses and ports', () => {
    const shipped = leaves(parse(readFileSync(ENVOY_YAML, 'utf8')));
    const edge = leaves(edgeEnvoyConfig(ADDRESSES));
    const changed = [...new Set([...shipped.keys(), ...edge.keys()])].filter(
      (path) => shipped.get(path) !== edge.get(path),
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const path of changed) expect(path).toMatch(/\/socket_address\/(address|port_value)$/);
    expect(edge.get('/static_resources/listeners/0/address/socket_address/port_value')).toBe(18080);
    expect(edge.get('/admin/address/socket_address/address')).toBe('127.0.0.1');
    expect(
      edge.get(
        '/static_resources/clusters/0/load_assignment/endpoints/0/lb_endpoints/1/endpoint/address/socket_address/port_value',
      ),
    ).toBe(50062);
  });

  it('keeps reflection off by default: both reflection routes answer 404 at Envoy', () => {
    const routes = (
      edgeEnvoyConfig(ADDRESSES) as unknown as {
        static_resources: {
          listeners: {
            filter_chains: {
              filters: {
                typed_config: { route_config: { virtual_hosts: { routes: RouteJson[] }[] } };
              }[];
            }[];
          }[];
        };
      }
    ).static_resources.listeners[0]!.filter_chains[0]!.filters[0]!.typed_config.route_config
      .virtual_hosts[0]!.routes;
    const reflection = routes.filter((r) => r.match.prefix?.startsWith('/grpc.reflection.'));
    expect(reflection.map((r) => r.match.prefix)).toEqual([
      '/grpc.reflection.v1.',
      '/grpc.reflection.v1alpha.',
    ]);
    for (const route of reflection) {
      expect(route.direct_response).toEqual({ status: 404 });
      expect(route.route).toBeUndefined();
    }
    expect(reflectionSetting(undefined)).toBe(false);
    expect(reflectionSetting('off')).toBe(false);
  });

  it('with STORE_EDGE_REFLECTION=on routes both reflection versions like every RPC, nothing else', () => {
    expect(reflectionSetting('on')).toBe(true);
    expect(() => reflectionSetting('yes')).toThrow(/on or off/);
    const off = leaves(edgeEnvoyConfig(ADDRESSES));
    const on = leaves(edgeEnvoyConfig({ ...ADDRESSES, reflection: true }));
    const changed = [...new Set([...off.keys(), ...on.keys()])].filter(
      (path) => off.get(path) !== on.get(path),
    );
    const rpcRoute = (index: number) =>
      [...on].filter(([path]) => path.startsWith(`${ROUTES}/${index}/route/`));
    // Route 0 (/store.backup.v1.) is an RPC route: each reflection route must become its copy.
    const reflectionIndexes = [...on]
      .filter(
        ([path, value]) =>
          path.endsWith('/match/prefix') && String(value).startsWith('/grpc.reflection.'),
      )
      .map(([path]) => Number(path.slice(ROUTES.length + 1).split('/')[0]));
    expect(reflectionIndexes).toHaveLength(2);
    for (const path of changed) {
      expect(path).toMatch(
        new RegExp(`^${ROUTES}/(${reflectionIndexes.join('|')})/(route|direct_response)/`),
      );
    }
    for (const index of reflectionIndexes) {
      expect(on.get(`${ROUTES}/${index}/direct_response/status`)).toBeUndefined();
      const mine = rpcRoute(index).map(([path, value]) => [
        path.slice(`${ROUTES}/${index}`.length),
        value,
      ]);
      const backup = rpcRoute(0).map(([path, value]) => [path.slice(`${ROUTES}/0`.length), value]);
      expect(mine).toEqual(backup);
      expect(on.get(`${ROUTES}/${index}/route/cluster`)).toBe('store_grpc');
    }
  });
});

interface RouteJson {
  match: { prefix?: string };
  route?: unknown;
  direct_response?: unknown;
}
