// Small readers over the canonical proto JSON (proto field names, defaults omitted, Any bodies
// inline with "@type"), which is what the semantic and policy checks navigate.
export type J = Record<string, unknown>;

export const obj = (x: unknown): J =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as J) : {};
export const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
export const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** The message name of an Any ("" when absent). */
export function anyType(x: unknown): string {
  const url = str(obj(x)['@type']) ?? '';
  return url.slice(url.lastIndexOf('/') + 1);
}

/** Canonical JSON durations are strings like "3600s" or "0.5s". */
export function durationSeconds(x: unknown): number | undefined {
  const s = str(x);
  return s?.endsWith('s') ? Number(s.slice(0, -1)) : undefined;
}

export const T = {
  hcm: 'envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
  router: 'envoy.extensions.filters.http.router.v3.Router',
  grpcWeb: 'envoy.extensions.filters.http.grpc_web.v3.GrpcWeb',
  cors: 'envoy.extensions.filters.http.cors.v3.Cors',
  corsPolicy: 'envoy.extensions.filters.http.cors.v3.CorsPolicy',
  filterConfig: 'envoy.config.route.v3.FilterConfig',
  httpOptions: 'envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
  tcpOptions: 'envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions',
} as const;

export interface HttpFilterRef {
  name: string;
  type: string;
}

export interface RouteScope {
  /** Path of the vhost/route/weighted cluster/route config that carries per-filter config. */
  path: string;
  node: J;
}

export interface Hcm {
  path: string;
  config: J;
  filters: HttpFilterRef[];
}

/** Every HttpConnectionManager of the static listeners, with its HTTP filters. */
export function connectionManagers(bootstrap: J): Hcm[] {
  const out: Hcm[] = [];
  arr(obj(bootstrap['static_resources'])['listeners']).forEach((l, li) => {
    arr(obj(l)['filter_chains']).forEach((fc, ci) => {
      arr(obj(fc)['filters']).forEach((f, fi) => {
        const typed = obj(f)['typed_config'];
        if (anyType(typed) !== T.hcm) return;
        const config = obj(typed);
        const filters = arr(config['http_filters']).map((h) => ({
          name: str(obj(h)['name']) ?? '',
          type: anyType(obj(h)['typed_config']),
        }));
        const path = `static_resources.listeners[${li}].filter_chains[${ci}].filters[${fi}].typed_config<${T.hcm}>`;
        out.push({ path, config, filters });
      });
    });
  });
  return out;
}

/** The inline route table's vhosts and routes, each with its path. */
export function routesOf(hcm: Hcm): { vhost: RouteScope; routes: RouteScope[] }[] {
  return arr(obj(hcm.config['route_config'])['virtual_hosts']).map((v, vi) => {
    const vpath = `${hcm.path}.route_config.virtual_hosts[${vi}]`;
    return {
      vhost: { path: vpath, node: obj(v) },
      routes: arr(obj(v)['routes']).map((r, ri) => ({
        path: `${vpath}.routes[${ri}]`,
        node: obj(r),
      })),
    };
  });
}

/** Is the cluster's upstream HTTP/2 (explicit h2, or auto/downstream config allowing it)? */
export function clusterSpeaksHttp2(cluster: J): boolean {
  const options = obj(obj(cluster['typed_extension_protocol_options'])[T.httpOptions]);
  const explicit = obj(options['explicit_http_config']);
  return (
    'http2_protocol_options' in explicit ||
    'auto_config' in options ||
    'http2_protocol_options' in obj(options['use_downstream_protocol_config'])
  );
}
