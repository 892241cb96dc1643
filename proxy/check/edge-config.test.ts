// Issue 15: `npm run edge` and the edge tests run proxy/envoy.yaml itself; only addresses and
// ports are substituted. This proves nothing else differs from the shipped file.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { edgeEnvoyConfig, ENVOY_YAML } from '../../scripts/edge/envoy-config.js';

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

describe('the edge config is proxy/envoy.yaml with local addresses', () => {
  it('differs from the shipped file only in socket addresses and ports', () => {
    const shipped = leaves(parse(readFileSync(ENVOY_YAML, 'utf8')));
    const edge = leaves(
      edgeEnvoyConfig({
        listenPort: 18080,
        adminPort: 19901,
        replicas: [
          { grpcPort: 50061, httpPort: 8061 },
          { grpcPort: 50062, httpPort: 8062 },
        ],
      }),
    );
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
});
