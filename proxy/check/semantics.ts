// The cross-reference checks Envoy runs at start-up, after each message validated on its own:
// they are what turns a well-typed config into "error initializing configuration".
import { isIP } from 'node:net';
import type { Problem } from './problem.js';
import {
  T,
  anyType,
  arr,
  clusterSpeaksHttp2,
  connectionManagers,
  obj,
  routesOf,
  str,
} from './json.js';
import type { Hcm, J } from './json.js';

const TERMINAL_NETWORK = new Set([
  T.hcm,
  'envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy',
  'envoy.extensions.filters.network.direct_response.v3.Config',
  'envoy.extensions.filters.network.echo.v3.Echo',
  'envoy.extensions.filters.network.redis_proxy.v3.RedisProxy',
  'envoy.extensions.filters.network.thrift_proxy.v3.ThriftProxy',
  'envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy',
]);

/** HTTP filters whose factories refuse per-route config (Envoy's default factory throws). */
const NO_PER_ROUTE = new Set<string>([T.router, T.grpcWeb]);
/** Per-route config type a filter accepts, where this checker knows it. */
const PER_ROUTE_TYPE: Record<string, string> = { [T.cors]: T.corsPolicy };
const PROTOCOL_OPTIONS: Record<string, string> = {
  [T.httpOptions]: T.httpOptions,
  [T.tcpOptions]: T.tcpOptions,
};

function duplicates(names: (string | undefined)[], path: string, what: string): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const name of names) {
    if (name === undefined || name === '') continue;
    if (seen.has(name))
      out.push({ kind: 'semantic', path, message: `duplicate ${what} "${name}"` });
    seen.add(name);
  }
  return out;
}

function endpointsOf(cluster: J): { address?: string; port?: number; path: string }[] {
  const out: { address?: string; port?: number; path: string }[] = [];
  arr(obj(cluster['load_assignment'])['endpoints']).forEach((loc, li) => {
    arr(obj(loc)['lb_endpoints']).forEach((ep, ei) => {
      const socket = obj(obj(obj(obj(ep)['endpoint'])['address'])['socket_address']);
      const port = socket['port_value'];
      out.push({
        address: str(socket['address']),
        port: typeof port === 'number' ? port : undefined,
        path: `load_assignment.endpoints[${li}].lb_endpoints[${ei}]`,
      });
    });
  });
  return out;
}

function checkCluster(cluster: J, path: string): Problem[] {
  const out: Problem[] = [];
  const add = (at: string, message: string) => out.push({ kind: 'semantic', path: at, message });
  const type = str(cluster['type']) ?? 'STATIC';
  const endpoints = endpointsOf(cluster);
  for (const ep of endpoints) {
    const at = `${path}.${ep.path}`;
    if (type === 'STATIC' && ep.address !== undefined && isIP(ep.address) === 0) {
      add(at, `malformed IP address "${ep.address}": a STATIC cluster needs IPs (use STRICT_DNS)`);
    }
    if ((type === 'STRICT_DNS' || type === 'LOGICAL_DNS') && ep.address === undefined) {
      add(at, `${type} clusters need socket_address endpoints`);
    }
  }
  if (type === 'LOGICAL_DNS' && endpoints.length !== 1) {
    add(path, 'LOGICAL_DNS clusters must have a single lb_endpoint');
  }
  for (const [key, value] of Object.entries(obj(cluster['typed_extension_protocol_options']))) {
    const at = `${path}.typed_extension_protocol_options["${key}"]`;
    const expected = PROTOCOL_OPTIONS[key];
    if (!expected) add(at, `no protocol options extension is named "${key}"`);
    else if (anyType(value) !== expected) add(at, `"${key}" needs an ${expected}`);
  }
  arr(cluster['health_checks']).forEach((hc, i) => {
    if ('grpc_health_check' in obj(hc) && !clusterSpeaksHttp2(cluster)) {
      add(
        `${path}.health_checks[${i}]`,
        `${str(cluster['name'])} cluster must support HTTP/2 for gRPC health checking`,
      );
    }
  });
  return out;
}

function checkHttpFilters(hcm: Hcm): Problem[] {
  const out: Problem[] = [];
  const at = `${hcm.path}.http_filters`;
  const last = hcm.filters.length - 1;
  const isRouter = (f: { name: string; type: string }) =>
    f.type === T.router || (f.type === '' && f.name === 'envoy.filters.http.router');
  hcm.filters.forEach((f, i) => {
    if (isRouter(f) && i !== last) {
      out.push({
        kind: 'semantic',
        path: `${at}[${i}]`,
        message: `terminal filter named ${f.name} of type ${f.type || f.name} must be the last filter in a http filter chain (the router must be last)`,
      });
    }
  });
  const tail = hcm.filters[last];
  if (tail && !isRouter(tail)) {
    out.push({
      kind: 'semantic',
      path: `${at}[${last}]`,
      message: `non-terminal filter named ${tail.name} is the last filter in a http filter chain (the router must be last)`,
    });
  }
  return out;
}

/** typed_per_filter_config keys must name a filter of this HCM, with a config it understands. */
function checkPerFilter(hcm: Hcm, scope: { path: string; node: J }): Problem[] {
  const out: Problem[] = [];
  for (const [key, value] of Object.entries(obj(scope.node['typed_per_filter_config']))) {
    const at = `${scope.path}.typed_per_filter_config["${key}"]`;
    const filter = hcm.filters.find((f) => f.name === key);
    if (!filter) {
      const known = hcm.filters.map((f) => f.name).join(', ');
      out.push({
        kind: 'semantic',
        path: at,
        message: `no HTTP filter named "${key}" in this connection manager (filters: ${known})`,
      });
      continue;
    }
    const type = anyType(value) === T.filterConfig ? anyType(obj(value)['config']) : anyType(value);
    if (NO_PER_ROUTE.has(filter.type)) {
      out.push({
        kind: 'semantic',
        path: at,
        message: `The filter ${key} doesn't support virtual host or route specific configurations`,
      });
    } else if (PER_ROUTE_TYPE[filter.type] && PER_ROUTE_TYPE[filter.type] !== type) {
      out.push({
        kind: 'semantic',
        path: at,
        message: `filter ${key} takes a ${PER_ROUTE_TYPE[filter.type]} per route, got ${type}`,
      });
    }
  }
  return out;
}

function checkRoutes(hcm: Hcm, clusters: Set<string> | undefined): Problem[] {
  const out: Problem[] = [];
  const routeConfig = obj(hcm.config['route_config']);
  out.push(...checkPerFilter(hcm, { path: `${hcm.path}.route_config`, node: routeConfig }));
  const tables = routesOf(hcm);
  const vhostPath = `${hcm.path}.route_config.virtual_hosts`;
  out.push(
    ...duplicates(
      tables.map((t) => str(t.vhost.node['name'])),
      vhostPath,
      'virtual host name',
    ),
  );
  const domains = tables.flatMap((t) => arr(t.vhost.node['domains']).map(str));
  for (const p of duplicates(domains, vhostPath, 'domain')) {
    out.push({ ...p, message: `Only unique values for domains are permitted: ${p.message}` });
  }
  const validate = routeConfig['validate_clusters'] !== false;
  for (const { vhost, routes } of tables) {
    out.push(...checkPerFilter(hcm, vhost));
    for (const route of routes) {
      out.push(...checkPerFilter(hcm, route));
      const action = obj(route.node['route']);
      const refs: [string, unknown][] = [['route.cluster', action['cluster']]];
      arr(obj(action['weighted_clusters'])['clusters']).forEach((w, i) => {
        refs.push([`route.weighted_clusters.clusters[${i}].name`, obj(w)['name']]);
        out.push(
          ...checkPerFilter(hcm, {
            path: `${route.path}.route.weighted_clusters.clusters[${i}]`,
            node: obj(w),
          }),
        );
      });
      arr(action['request_mirror_policies']).forEach((m, i) => {
        refs.push([`route.request_mirror_policies[${i}].cluster`, obj(m)['cluster']]);
      });
      for (const [field, name] of refs) {
        if (!validate || !clusters || typeof name !== 'string') continue;
        if (!clusters.has(name)) {
          out.push({
            kind: 'semantic',
            path: `${route.path}.${field}`,
            message: `route: unknown cluster '${name}'`,
          });
        }
      }
    }
  }
  return out;
}

/** Envoy's start-up cross-checks over the canonical JSON of a decoded, valid bootstrap. */
export function checkSemantics(bootstrap: J): Problem[] {
  const out: Problem[] = [];
  const resources = obj(bootstrap['static_resources']);
  const clusters = arr(resources['clusters']).map(obj);
  const listeners = arr(resources['listeners']).map(obj);
  out.push(
    ...duplicates(
      clusters.map((c) => str(c['name'])),
      'static_resources.clusters',
      'cluster name',
    ),
  );
  out.push(
    ...duplicates(
      listeners.map((l) => str(l['name'])),
      'static_resources.listeners',
      'listener name',
    ),
  );
  const sockets = listeners.map((l) => {
    const s = obj(obj(l['address'])['socket_address']);
    return s['address'] === undefined
      ? undefined
      : `${str(s['protocol']) ?? 'TCP'} ${str(s['address'])}:${String(s['port_value'] ?? 0)}`;
  });
  out.push(...duplicates(sockets, 'static_resources.listeners', 'listener address'));
  clusters.forEach((c, i) => out.push(...checkCluster(c, `static_resources.clusters[${i}]`)));
  listeners.forEach((l, li) => {
    const chains = arr(l['filter_chains']).map(obj);
    out.push(
      ...duplicates(
        chains.map((c) => str(c['name'])),
        `static_resources.listeners[${li}].filter_chains`,
        'filter chain name',
      ),
    );
    chains.forEach((chain, ci) => {
      const types = arr(chain['filters']).map((f) => anyType(obj(f)['typed_config']));
      types.forEach((type, fi) => {
        const at = `static_resources.listeners[${li}].filter_chains[${ci}].filters[${fi}]`;
        if (TERMINAL_NETWORK.has(type) && fi !== types.length - 1) {
          out.push({
            kind: 'semantic',
            path: at,
            message: `terminal filter of type ${type} must be the last filter in a network filter chain`,
          });
        }
      });
    });
  });
  // With CDS, clusters arrive at run time: a route naming an unknown one is not a load error.
  const dynamic = obj(bootstrap['dynamic_resources']);
  const known =
    'cds_config' in dynamic || 'cds_resources_locator' in dynamic
      ? undefined
      : new Set(clusters.map((c) => str(c['name']) ?? ''));
  for (const hcm of connectionManagers(bootstrap)) {
    out.push(...checkHttpFilters(hcm), ...checkRoutes(hcm, known));
  }
  return out;
}
