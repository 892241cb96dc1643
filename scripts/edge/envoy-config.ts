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
}

interface SocketAddress {
  address: string;
  port_value: number;
}
type Json = Record<string, unknown>;

/**
 * proxy/envoy.yaml with only addresses and ports replaced: the listener and the admin API on
 * loopback ports, and each cluster's endpoints (server-1, server-2 … in compose) by this
 * machine's replicas. Everything else (filters, routes, timeouts, windows, health checks,
 * outlier detection, CORS) is the shipped file, unchanged; proxy/check/edge-config.test.ts
 * proves that nothing else differs.
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
  return config;
}

/** Writes the edge config as JSON (a subset of YAML, which Envoy reads) and returns its path. */
export function writeEdgeEnvoyConfig(dir: string, addresses: EdgeAddresses): string {
  const path = join(dir, 'envoy.yaml');
  writeFileSync(path, `${JSON.stringify(edgeEnvoyConfig(addresses), null, 2)}\n`);
  return path;
}
