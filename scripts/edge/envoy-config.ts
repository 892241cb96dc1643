import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
export const ENVOY_YAML = join(ROOT, 'proxy', 'envoy.yaml');

/** Where the edge listens and where its replicas are, on this machine. */
export interface EdgeAddresses {
  /** Envoy's listener (the console's URL). */
  listenPort: number;
  /** Envoy's admin API (stats, clusters). */
  adminPort: number;
  /** Each replica's h2c port (cluster store_grpc) and HTTP/1.1 port (cluster store_http). */
  replicas: { grpcPort: number; httpPort: number }[];
  /** Loopback by default. */
  host?: string;
  /**
   * STORE_EDGE_REFLECTION=on: route server reflection (v1 and v1alpha) to the replicas like every
   * RPC, instead of the shipped 404 (docs/deployment.md, "Reflection through Envoy").
   */
  reflection?: boolean;
}

/** The routes proxy/envoy.yaml answers 404 unless reflection is served through Envoy. */
export const REFLECTION_ROUTES = ['reflection_v1', 'reflection_v1alpha'];

/** STORE_EDGE_REFLECTION: `on` or `off` (the default, also when unset or empty). */
export function reflectionSetting(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'off') return false;
  if (value === 'on') return true;
  throw new Error(`STORE_EDGE_REFLECTION must be on or off, not ${JSON.stringify(value)}`);
}

interface SocketAddress {
  address: string;
  port_value: number;
}
type Json = Record<string, unknown>;

/**
 * proxy/envoy.yaml with only addresses and ports replaced: the listener and the admin API on
 * loopback ports, and each cluster's endpoints (server-1, server-2 … in compose) by this
 * machine's replicas; with `reflection`, the two reflection routes made RPC routes too, the
 * edit docs/deployment.md tells operators to make. Everything else (filters, routes, timeouts,
 * windows, health checks, outlier detection, CORS) is the shipped file, unchanged;
 * proxy/check/edge-config.test.ts proves that nothing else differs.
 */
export function edgeEnvoyConfig(
  addresses: EdgeAddresses,
  yamlText = readFileSync(ENVOY_YAML, 'utf8'),
): Json {
  const host = addresses.host ?? '127.0.0.1';
  const config = parse(yamlText) as Json;
  const admin = config.admin as { address: { socket_address: SocketAddress } };
  admin.address.socket_address = { address: host, port_value: addresses.adminPort };
  const resources = config.static_resources as { listeners: Json[]; clusters: Json[] };
  for (const listener of resources.listeners) {
    const socket = (listener.address as { socket_address: SocketAddress }).socket_address;
    listener.address = {
      socket_address: { ...socket, address: host, port_value: addresses.listenPort },
    };
  }
  for (const cluster of resources.clusters) {
    const name = cluster.name as string;
    const portOf =
      name === 'store_grpc'
        ? (r: EdgeAddresses['replicas'][number]) => r.grpcPort
        : name === 'store_http'
          ? (r: EdgeAddresses['replicas'][number]) => r.httpPort
          : undefined;
    if (!portOf) throw new Error(`cluster ${name}: no local replica port for it`);
    const assignment = cluster.load_assignment as { endpoints: { lb_endpoints: Json[] }[] };
    assignment.endpoints = [
      {
        ...assignment.endpoints[0],
        lb_endpoints: addresses.replicas.map((replica) => ({
          endpoint: { address: { socket_address: { address: host, port_value: portOf(replica) } } },
        })),
      },
    ];
  }
  if (addresses.reflection) serveReflection(resources.listeners);
  return config;
}

type Route = { name?: string; route?: Json; direct_response?: Json };

/** Gives the reflection routes of every virtual host the action of its RPC routes. */
function serveReflection(listeners: Json[]): void {
  const hosts = listeners.flatMap((listener) =>
    (listener.filter_chains as { filters: { typed_config: Json }[] }[]).flatMap((chain) =>
      chain.filters.flatMap((filter) => {
        const routeConfig = filter.typed_config.route_config as
          { virtual_hosts: { routes: Route[] }[] } | undefined;
        return routeConfig?.virtual_hosts ?? [];
      }),
    ),
  );
  let found = 0;
  for (const host of hosts) {
    const rpc = host.routes.find((route) => route.route?.cluster === 'store_grpc')?.route;
    for (const route of host.routes.filter((r) => REFLECTION_ROUTES.includes(r.name ?? ''))) {
      if (!rpc) throw new Error('proxy/envoy.yaml: no RPC route to give reflection');
      delete route.direct_response;
      route.route = structuredClone(rpc);
      found++;
    }
  }
  if (found !== REFLECTION_ROUTES.length)
    throw new Error(`proxy/envoy.yaml: expected routes ${REFLECTION_ROUTES.join(', ')}`);
}

/** Writes the edge config as JSON (a subset of YAML, which Envoy reads) and returns its path. */
export function writeEdgeEnvoyConfig(dir: string, addresses: EdgeAddresses): string {
  const path = join(dir, 'envoy.yaml');
  writeFileSync(path, `${JSON.stringify(edgeEnvoyConfig(addresses), null, 2)}\n`);
  return path;
}
