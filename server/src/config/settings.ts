/**
 * Every runtime setting with its environment name (DESIGN.md §2), flag, default and parser.
 * Flags mirror the names: STORE_HTTP_PORT ↔ --http-port.
 */
export type Authorizer = 'rbac' | 'allow-all' | 'deny-all';

export interface ServerConfig {
  dataDir: string;
  artifactDir: string;
  databaseUrl: string | undefined;
  postgresSchema: string | undefined;
  host: string;
  httpPort: number;
  grpcPort: number;
  staticDir: string | undefined;
  bootstrapToken: string | undefined;
  bootstrapTenant: string;
  authorizer: Authorizer;
  requireAuthorization: boolean;
  credentialHeader: string;
  credentialScheme: string;
  activeTenantHeader: string;
  trustedTenant: string | undefined;
  healthMonitoring: boolean;
  schedulerMinIntervalSeconds: number;
  maxMessageBytes: number;
  oidcIssuer: string | undefined;
  oidcClientId: string | undefined;
  oidcAudience: string | undefined;
  oidcScope: string;
  oidcTenantsClaim: string;
  oidcRolesClaim: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  operationLeaseMs: number;
  operationConcurrency: number;
  shutdownGraceMs: number;
}

/** A setting that cannot be used; start-up stops with this message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Parser<T> = (raw: string, name: string) => T;

export interface Setting<K extends keyof ServerConfig = keyof ServerConfig> {
  key: K;
  env: string;
  flag: string;
  parse: Parser<ServerConfig[K]>;
  describe: string;
}

const text: Parser<string> = (raw, name) => {
  if (raw.trim() === '') throw new ConfigError(`${name}: must not be empty`);
  return raw.trim();
};
const optionalText: Parser<string | undefined> = (raw) => (raw.trim() === '' ? undefined : raw);

const integer =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const value = Number(raw);
    if (!/^\s*-?\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new ConfigError(
        `${name}: must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
      );
    }
    return value;
  };

const boolean: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name}: must be true or false, got ${JSON.stringify(raw)}`);
};

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw, name) => {
    if ((values as string[]).includes(raw.trim())) return raw.trim() as T;
    throw new ConfigError(
      `${name}: must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  };

const postgresUrl: Parser<string | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(`${name}: must be a postgres:// URL`);
  }
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name}: is not a valid URL`);
  }
  return raw;
};

const httpsUrl: Parser<string | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: is not a valid URL, got ${JSON.stringify(raw)}`);
  }
  // Plain http only for loopback names (development IdPs, e.g. `oidc.localhost` in compose).
  const local =
    url.hostname === '127.0.0.1' ||
    url.hostname === '[::1]' ||
    url.hostname === 'localhost' ||
    url.hostname.endsWith('.localhost');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new ConfigError(`${name}: must be an https:// URL (http:// only for localhost)`);
  }
  return raw.replace(/\/$/, '');
};

const identifier: Parser<string | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) {
    throw new ConfigError(`${name}: must be a lower-case SQL identifier`);
  }
  return raw;
};

const tenant: Parser<string> = (raw, name) => {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(raw) || raw === '.' || raw === '..') {
    throw new ConfigError(`${name}: must be 1–128 characters of A–Z, a–z, 0–9, '.', '_', '-'`);
  }
  return raw;
};

const headerName: Parser<string> = (raw, name) => {
  if (!/^[A-Za-z0-9-]+$/.test(raw)) throw new ConfigError(`${name}: is not an HTTP header name`);
  return raw.toLowerCase();
};

function setting<K extends keyof ServerConfig>(
  key: K,
  env: string,
  parse: Parser<ServerConfig[K]>,
  describe: string,
): Setting<K> {
  const flag = `--${env
    .replace(/^STORE_/, '')
    .toLowerCase()
    .replace(/_/g, '-')}`;
  return { key, env, flag, parse, describe };
}

/** The settings table; order is the order `--help` prints. */
export const SETTINGS: readonly Setting[] = [
  setting('dataDir', 'STORE_DATA_DIR', text, 'SQLite file, artifacts, generated secrets'),
  setting(
    'artifactDir',
    'STORE_ARTIFACT_DIR',
    text,
    'backup artifacts (default: <data dir>/artifacts)',
  ),
  setting(
    'databaseUrl',
    'DATABASE_URL',
    postgresUrl,
    'postgres://… switches storage to PostgreSQL',
  ),
  setting(
    'postgresSchema',
    'STORE_PG_SCHEMA',
    identifier,
    'PostgreSQL schema (default: the search path)',
  ),
  setting('host', 'STORE_HOST', text, 'interface to listen on'),
  setting('httpPort', 'STORE_HTTP_PORT', integer(0, 65535), 'HTTP/1.1: SPA, gRPC-Web, Connect'),
  setting('grpcPort', 'STORE_GRPC_PORT', integer(0, 65535), 'h2c: native gRPC (Envoy upstream)'),
  setting('staticDir', 'STORE_STATIC_DIR', optionalText, 'built SPA to serve (default: web/dist)'),
  setting(
    'bootstrapToken',
    'STORE_BOOTSTRAP_TOKEN',
    optionalText,
    'first admin API token on an empty data dir',
  ),
  setting('bootstrapTenant', 'STORE_BOOTSTRAP_TENANT', tenant, 'tenant of that first admin'),
  setting(
    'authorizer',
    'STORE_AUTHORIZER',
    oneOf<Authorizer>('rbac', 'allow-all', 'deny-all'),
    'rbac, allow-all or deny-all',
  ),
  setting(
    'requireAuthorization',
    'STORE_REQUIRE_AUTHORIZATION',
    boolean,
    'run the authorizer on protected calls',
  ),
  setting(
    'credentialHeader',
    'STORE_CREDENTIAL_HEADER',
    headerName,
    'header carrying the credential',
  ),
  setting('credentialScheme', 'STORE_CREDENTIAL_SCHEME', text, 'scheme prefix stripped from it'),
  setting(
    'activeTenantHeader',
    'STORE_ACTIVE_TENANT_HEADER',
    headerName,
    'header naming the active tenant',
  ),
  setting(
    'trustedTenant',
    'STORE_TRUSTED_TENANT',
    optionalText,
    'tenant anonymous callers act in (trusted networks)',
  ),
  setting('healthMonitoring', 'STORE_HEALTH_MONITORING', boolean, 'health monitoring available'),
  setting(
    'schedulerMinIntervalSeconds',
    'STORE_SCHEDULER_MIN_INTERVAL',
    integer(1, 31_536_000),
    'scheduler minimum, seconds',
  ),
  setting(
    'maxMessageBytes',
    'STORE_MAX_MESSAGE_BYTES',
    integer(1024, 1 << 30),
    'per-message limit',
  ),
  setting('oidcIssuer', 'STORE_OIDC_ISSUER', httpsUrl, 'OpenID issuer (enables the oidc scheme)'),
  setting('oidcClientId', 'STORE_OIDC_CLIENT_ID', optionalText, 'OpenID client id of the console'),
  setting('oidcAudience', 'STORE_OIDC_AUDIENCE', optionalText, 'expected access-token audience'),
  setting('oidcScope', 'STORE_OIDC_SCOPE', text, 'scopes the console asks for'),
  setting('oidcTenantsClaim', 'STORE_OIDC_TENANTS_CLAIM', text, 'claim listing tenant grants'),
  setting('oidcRolesClaim', 'STORE_OIDC_ROLES_CLAIM', text, 'claim listing roles'),
  setting(
    'logLevel',
    'STORE_LOG_LEVEL',
    oneOf('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'),
    'log level',
  ),
  setting(
    'operationLeaseMs',
    'STORE_OPERATION_LEASE_MS',
    integer(500, 3_600_000),
    'lease of a running operation',
  ),
  setting(
    'operationConcurrency',
    'STORE_OPERATION_CONCURRENCY',
    integer(1, 64),
    'operations run at once per server',
  ),
  setting(
    'shutdownGraceMs',
    'STORE_SHUTDOWN_GRACE_MS',
    integer(0, 600_000),
    'time running work gets on shutdown',
  ),
];

/** Defaults; artifactDir follows dataDir unless set. */
export function defaults(): Omit<ServerConfig, 'artifactDir'> & { artifactDir?: string } {
  return {
    dataDir: './data',
    databaseUrl: undefined,
    postgresSchema: undefined,
    host: '127.0.0.1',
    httpPort: 8080,
    grpcPort: 50051,
    staticDir: undefined,
    bootstrapToken: undefined,
    bootstrapTenant: 'default',
    authorizer: 'rbac',
    requireAuthorization: true,
    credentialHeader: 'authorization',
    credentialScheme: 'Bearer',
    activeTenantHeader: 'store-active-tenant',
    trustedTenant: undefined,
    healthMonitoring: true,
    schedulerMinIntervalSeconds: 60,
    maxMessageBytes: 4 * 1024 * 1024,
    oidcIssuer: undefined,
    oidcClientId: undefined,
    oidcAudience: undefined,
    oidcScope: 'openid profile',
    oidcTenantsClaim: 'store_tenants',
    oidcRolesClaim: 'store_roles',
    logLevel: 'info',
    operationLeaseMs: 15_000,
    operationConcurrency: 2,
    shutdownGraceMs: 10_000,
  };
}
