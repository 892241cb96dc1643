import {
  ArtifactLocationError,
  parseArtifactLocation,
  parseS3Endpoint,
  parseS3Region,
  type ArtifactLocation,
} from './artifact-location.js';
import { parseTrustedProxies } from './trusted-proxies.js';

/**
 * Every runtime setting with its environment name (DESIGN.md §2), flag, default and parser.
 * Flags mirror the names: STORE_HTTP_PORT ↔ --http-port.
 */
export type Authorizer = 'rbac' | 'allow-all' | 'deny-all';

export interface ServerConfig {
  dataDir: string;
  /**
   * The directory of the artifacts (STORE_ARTIFACT_DIR, or STORE_ARTIFACT_URL's directory); with
   * an s3:// location `<data dir>/artifacts`, unused: the backup engine reads `artifactStore`.
   */
  artifactDir: string;
  /** STORE_ARTIFACT_URL resolved: a directory, or a bucket and prefix in object storage. */
  artifactStore: ArtifactLocation;
  /** S3-compatible server (MinIO, Ceph…); undefined: AWS. */
  s3Endpoint: string | undefined;
  s3Region: string;
  /** Path-style requests (`host/bucket/key`), which MinIO-style servers need. */
  s3ForcePathStyle: boolean;
  databaseUrl: string | undefined;
  postgresSchema: string | undefined;
  host: string;
  httpPort: number;
  grpcPort: number;
  staticDir: string | undefined;
  bootstrapToken: string | undefined;
  bootstrapTenant: string;
  /** Lifetime of the first admin token in ms; null: it never expires. */
  bootstrapTokenTtlMs: number | null;
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
  /** Worker threads that compile policy schemas and validate values (validation budget). */
  validationThreads: number;
  /** Longest one value's validation may take; compiling a schema gets five times as long. */
  validationTimeBudgetMs: number;
  /** Heap of each validation worker in MiB; a value needing more is over the budget. */
  validationMemoryMb: number;
  /**
   * Start the validation threads in the background at start-up, so the first policy check after a
   * start does not pay for starting them beside other callers' calls.
   */
  validationWarmStart: boolean;
  shutdownGraceMs: number;
  /** Addresses and CIDR ranges whose x-forwarded-for is believed for the client address. */
  trustedProxies: string[];
  auditRetentionDays: number;
  /** Refused credentials per client address per window before it is refused (0: no limit). */
  signInFailureLimit: number;
  signInFailureWindowSeconds: number;
  /**
   * Refusals of callers with no verified credential recorded per client address per window;
   * beyond it they are answered ResourceExhausted and summarised (0: no limit).
   */
  refusalLimit: number;
  refusalWindowSeconds: number;
  /** Host names answered besides the defaults (host-allowlist.ts); `*` answers any. */
  allowedHosts: string[];
  maxConnections: number;
  handshakeTimeoutSeconds: number;
  idleTimeoutSeconds: number;
  streamCredentialCheckSeconds: number;
  /** Preview storage (docs/security.md): differences stored per preview or diff. */
  previewMaxStoredDifferences: number;
  /** Bytes of differences (keys and values) stored per preview or diff. */
  previewMaxStoredBytes: number;
  /** Seconds a comparison's stored differences live unless an admin keeps them. */
  previewDifferencesTtlSeconds: number;
  /** Bytes of stored differences per tenant; a new preview or diff over it is refused. */
  previewTenantMaxBytes: number;

  /** Previews, comparisons and dry-runs a tenant may have queued or running at once. */
  operationPreviewCap: number;
  /** Operations of every other kind a tenant may have queued or running at once. */
  operationTenantCap: number;
  /** Of a server's operation slots, how many previews, comparisons and dry-runs may hold. */
  operationPreviewSlots: number;
  /** Preview, comparison and dry-run starts per caller per minute (0: no limit). */
  previewStartsPerMinute: number;
  /** Of those, how many a caller may start at once after a quiet spell. */
  previewStartBurst: number;
  /**
   * "Apply after each scheduled capture" of retention rules set for the first time without
   * saying (and what a new rules form starts from): off, so running by itself is a choice.
   */
  retentionApplyAfterScheduleDefault: boolean;
  /**
   * Of a scope's usable backups, the share an automatic retention apply may delete; above it the
   * apply stops and deletes nothing.
   */
  retentionAutoMaxShare: number;
  /**
   * The Prometheus listener's port (STORE_METRICS_PORT); null: off; undefined: not set, so
   * DEFAULT_METRICS_PORT, and a port already taken only costs this process its metrics.
   */
  metricsPort: number | null | undefined;
  /** The interface the metrics listener binds (loopback unless the operator opens it). */
  metricsHost: string;
  /** Backup scopes (and dead-letter trees) given per-scope series, per process. */
  metricsMaxScopes: number;
  /** A running operation with no progress for longer than this counts as stuck. */
  operationStuckAfterSeconds: number;
  /** A tree with backups but no PROVEN restore drill for longer than this is "not proven". */
  drillProofMaxAgeDays: number;
  /** Webhooks may reach loopback, private and link-local addresses (tests, closed networks). */
  notifyAllowPrivateTargets: boolean;
  /** Failed deliveries in a row that pause a notification channel. */
  notifyPauseAfter: number;
  /** One delivery attempt's time limit (connect and answer). */
  notifyTimeoutMs: number;
  /** This replica sends due notifications; false holds them in the outbox (another sends them). */
  notifyDelivery: boolean;
  /** How often the outbox is looked at (ms); alert conditions every 15 of these. */
  notifyPollMs: number;
  /** smtp://host:port (or smtps://user:pass@host) for email channels; unset: no email channels. */
  smtpUrl: string | undefined;
  /** The From address of notification emails. */
  smtpFrom: string | undefined;
}

/** STORE_METRICS_PORT when not set: OpenTelemetry's Prometheus exporter port. */
export const DEFAULT_METRICS_PORT = 9464;

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

/** A share from 0 to 1 ("0.5"), or a percentage ("50%"). */
const share: Parser<number> = (raw, name) => {
  const text = raw.trim();
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text) / (percent ? 100 : 1);
  if (text === '' || text === '%' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigError(
      `${name}: must be a share from 0 to 1 (or 0% to 100%), got ${JSON.stringify(raw)}`,
    );
  }
  return value;
};

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw, name) => {
    if ((values as string[]).includes(raw.trim())) return raw.trim() as T;
    throw new ConfigError(
      `${name}: must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  };

const smtpUrl: Parser<string | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  if (!/^smtps?:\/\/[^/]+/.test(raw.trim())) {
    throw new ConfigError(`${name}: must be an smtp:// or smtps:// URL`);
  }
  return raw.trim();
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

/** Shortest STORE_BOOTSTRAP_TOKEN: it is a long-lived admin secret, guessable when short. */
export const MIN_PRESET_TOKEN_LENGTH = 32;

const presetToken: Parser<string | undefined> = (raw, name) => {
  if (raw.trim() === '') return undefined;
  if (raw.length < MIN_PRESET_TOKEN_LENGTH) {
    throw new ConfigError(
      `${name}: must be at least ${MIN_PRESET_TOKEN_LENGTH} characters, got ${raw.length} (try \`openssl rand -hex 24\`)`,
    );
  }
  return raw;
};

/** `<n>m`, `<n>h`, `<n>d` as milliseconds, or `never` (null). */
const lifetime: Parser<number | null> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (value === 'never') return null;
  const match = /^([1-9]\d{0,5})([mhd])$/.exec(value);
  if (!match) {
    throw new ConfigError(`${name}: must be <n>m, <n>h, <n>d or never, got ${JSON.stringify(raw)}`);
  }
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
};

const hostNames: Parser<string[]> = (raw, name) => {
  const names = raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  for (const host of names) {
    if (host !== '*' && !/^\.?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(host)) {
      throw new ConfigError(
        `${name}: ${JSON.stringify(host)} is not a host name (no port, no scheme)`,
      );
    }
  }
  return names;
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

const addressList: Parser<string[]> = (raw, name) => {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && entry !== 'none');
  try {
    parseTrustedProxies(entries);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
  return entries;
};

/** Wraps a parser of artifact-location.ts so its message names the setting. */
const locationParser =
  <T>(parse: (raw: string) => T): Parser<T> =>
  (raw, name) => {
    try {
      return parse(raw);
    } catch (error) {
      if (error instanceof ArtifactLocationError)
        throw new ConfigError(`${name}: ${error.message}`);
      throw error;
    }
  };

const optionalEndpoint: Parser<string | undefined> = (raw, name) =>
  raw.trim() === '' ? undefined : locationParser(parseS3Endpoint)(raw, name);

/** A port, or `off` (null): a listener the operator may turn off. */
const portOrOff: Parser<number | null | undefined> = (raw, name) => {
  if (raw.trim().toLowerCase() === 'off') return null;
  return integer(0, 65535)(raw, name);
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
    'backup artifacts (default: <data dir>/artifacts; older name of a STORE_ARTIFACT_URL directory)',
  ),
  setting(
    'artifactStore',
    'STORE_ARTIFACT_URL',
    locationParser(parseArtifactLocation),
    'backup artifacts: a directory, file:///path or s3://bucket/prefix (default: <data dir>/artifacts)',
  ),
  setting(
    's3Endpoint',
    'STORE_S3_ENDPOINT',
    optionalEndpoint,
    'S3-compatible server for s3:// artifacts, e.g. MinIO (default: AWS)',
  ),
  setting('s3Region', 'STORE_S3_REGION', locationParser(parseS3Region), 'S3 region'),
  setting(
    's3ForcePathStyle',
    'STORE_S3_FORCE_PATH_STYLE',
    boolean,
    'path-style S3 requests (true for MinIO-style servers)',
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
    presetToken,
    'first admin API token on an empty data dir (32+ characters)',
  ),
  setting('bootstrapTenant', 'STORE_BOOTSTRAP_TENANT', tenant, 'tenant of that first admin'),
  setting(
    'bootstrapTokenTtlMs',
    'STORE_BOOTSTRAP_TOKEN_TTL',
    lifetime,
    'lifetime of that first admin token: <n>m|h|d or never',
  ),
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
    'validationThreads',
    'STORE_VALIDATION_THREADS',
    integer(2, 64),
    'worker threads that validate values against policies (a tenant holds at most all but one)',
  ),
  setting(
    'validationTimeBudgetMs',
    'STORE_VALIDATION_TIME_BUDGET_MS',
    integer(50, 60_000),
    'longest validation of one value; over it the value is over the validation budget',
  ),
  setting(
    'validationMemoryMb',
    'STORE_VALIDATION_MEMORY_MB',
    integer(32, 16_384),
    'heap of each validation worker in MiB; over it the value is over the validation budget',
  ),
  setting(
    'validationWarmStart',
    'STORE_VALIDATION_WARM_START',
    boolean,
    'start the validation threads at start-up (in the background) rather than at the first policy check',
  ),
  setting(
    'shutdownGraceMs',
    'STORE_SHUTDOWN_GRACE_MS',
    integer(0, 600_000),
    'time running work gets on shutdown',
  ),
  setting(
    'trustedProxies',
    'STORE_TRUSTED_PROXIES',
    addressList,
    'proxies whose x-forwarded-for names the client (addresses, CIDR ranges; none)',
  ),
  setting(
    'auditRetentionDays',
    'STORE_AUDIT_RETENTION_DAYS',
    integer(1, 36_500),
    'days audit records are kept',
  ),
  setting(
    'signInFailureLimit',
    'STORE_SIGN_IN_FAILURE_LIMIT',
    integer(0, 1_000_000),
    'refused credentials per address per window (0: no limit)',
  ),
  setting(
    'signInFailureWindowSeconds',
    'STORE_SIGN_IN_FAILURE_WINDOW',
    integer(1, 86_400),
    'that window, seconds',
  ),
  setting(
    'refusalLimit',
    'STORE_REFUSAL_LIMIT',
    integer(0, 1_000_000),
    'refusals of unverified callers recorded per address per window (0: no limit)',
  ),
  setting(
    'refusalWindowSeconds',
    'STORE_REFUSAL_WINDOW',
    integer(1, 3_600),
    'that window, seconds',
  ),
  setting(
    'allowedHosts',
    'STORE_ALLOWED_HOSTS',
    hostNames,
    'Host names served besides loopback, IPs and this machine (comma list; .suffix; *)',
  ),
  setting(
    'maxConnections',
    'STORE_MAX_CONNECTIONS',
    integer(1, 1_000_000),
    'connections each listener holds at once',
  ),
  setting(
    'handshakeTimeoutSeconds',
    'STORE_HANDSHAKE_TIMEOUT',
    integer(1, 120),
    'seconds a connection gets to send its request head / HTTP/2 preface',
  ),
  setting(
    'idleTimeoutSeconds',
    'STORE_IDLE_TIMEOUT',
    integer(1, 86_400),
    'seconds an h2c connection may stay open with no call',
  ),
  setting(
    'streamCredentialCheckSeconds',
    'STORE_STREAM_CREDENTIAL_CHECK',
    integer(1, 3600),
    'seconds between credential checks of an open response stream',
  ),
  setting(
    'previewMaxStoredDifferences',
    'STORE_PREVIEW_MAX_STORED_DIFFERENCES',
    integer(0, 10_000_000),
    'differences a preview or diff stores (the first in key order; counts stay exact)',
  ),
  setting(
    'previewMaxStoredBytes',
    'STORE_PREVIEW_MAX_STORED_BYTES',
    integer(0, 1024 * 1024 * 1024),
    'bytes of differences a preview or diff stores',
  ),
  setting(
    'previewDifferencesTtlSeconds',
    'STORE_PREVIEW_DIFFERENCES_TTL',
    integer(1, 30 * 86_400),
    'seconds stored differences live unless an admin keeps them',
  ),
  setting(
    'previewTenantMaxBytes',
    'STORE_PREVIEW_TENANT_MAX_BYTES',
    integer(0, Number.MAX_SAFE_INTEGER),
    'bytes of stored differences per tenant; over it a new preview is refused',
  ),
  setting(
    'operationPreviewCap',
    'STORE_OPERATION_PREVIEW_CAP',
    integer(1, 100_000),
    'previews, comparisons and dry-runs a tenant may have queued or running at once',
  ),
  setting(
    'operationTenantCap',
    'STORE_OPERATION_TENANT_CAP',
    integer(1, 1_000_000),
    'operations of other kinds a tenant may have queued or running at once',
  ),
  setting(
    'operationPreviewSlots',
    'STORE_OPERATION_PREVIEW_SLOTS',
    integer(1, 64),
    'of the operations run at once per server, how many may be previews and dry-runs',
  ),
  setting(
    'previewStartsPerMinute',
    'STORE_PREVIEW_START_RATE',
    integer(0, 1_000_000),
    'preview, comparison and dry-run starts per caller per minute (0: no limit)',
  ),
  setting(
    'previewStartBurst',
    'STORE_PREVIEW_START_BURST',
    integer(1, 100_000),
    'of those, how many a caller may start at once',
  ),
  setting(
    'retentionApplyAfterScheduleDefault',
    'STORE_RETENTION_APPLY_AFTER_SCHEDULE',
    boolean,
    'retention rules set for the first time apply after each scheduled capture unless told otherwise',
  ),
  setting(
    'retentionAutoMaxShare',
    'STORE_RETENTION_AUTO_MAX_SHARE',
    share,
    "share of a scope's usable backups an automatic retention apply may delete (above it: it stops)",
  ),
  setting(
    'metricsPort',
    'STORE_METRICS_PORT',
    portOrOff,
    `Prometheus metrics (GET /metrics) port, or off (default ${DEFAULT_METRICS_PORT})`,
  ),
  setting('metricsHost', 'STORE_METRICS_HOST', text, 'interface the metrics listener binds'),
  setting(
    'metricsMaxScopes',
    'STORE_METRICS_MAX_SCOPES',
    integer(0, 1_000_000),
    'backup scopes (and dead-letter trees) with series of their own; the rest are counted as dropped',
  ),
  setting(
    'operationStuckAfterSeconds',
    'STORE_OPERATION_STUCK_AFTER_SECONDS',
    integer(1, 31_536_000),
    'seconds without progress after which a running operation counts as stuck (metrics)',
  ),
  setting(
    'drillProofMaxAgeDays',
    'STORE_DRILL_PROOF_MAX_AGE_DAYS',
    integer(1, 3650),
    'days a tree with backups may go without a PROVEN restore drill before the dashboard says "not proven"',
  ),
  setting(
    'notifyAllowPrivateTargets',
    'STORE_NOTIFY_ALLOW_PRIVATE_TARGETS',
    boolean,
    'webhook URLs may resolve to loopback, private or link-local addresses',
  ),
  setting(
    'notifyPauseAfter',
    'STORE_NOTIFY_PAUSE_AFTER',
    integer(1, 10_000),
    'failed deliveries in a row after which a notification channel is paused',
  ),
  setting(
    'notifyTimeoutMs',
    'STORE_NOTIFY_TIMEOUT_MS',
    integer(100, 120_000),
    'time limit of one notification attempt (connect and answer), in ms',
  ),
  setting(
    'notifyDelivery',
    'STORE_NOTIFY_DELIVERY',
    boolean,
    'this replica sends notifications (false: they wait in the outbox for another)',
  ),
  setting(
    'notifyPollMs',
    'STORE_NOTIFY_POLL_MS',
    integer(50, 600_000),
    'how often the notification outbox is looked at, in ms (alert conditions: every 15th)',
  ),
  setting(
    'smtpUrl',
    'STORE_SMTP_URL',
    smtpUrl,
    'SMTP server for email notifications (smtp://host:port)',
  ),
  setting('smtpFrom', 'STORE_SMTP_FROM', optionalText, 'From address of notification emails'),
];

/** Defaults; the artifact location follows dataDir unless set. */
export function defaults(): Omit<ServerConfig, 'artifactDir' | 'artifactStore'> & {
  artifactDir?: string;
  artifactStore?: ArtifactLocation;
} {
  return {
    dataDir: './data',
    s3Endpoint: undefined,
    s3Region: 'us-east-1',
    s3ForcePathStyle: false,
    databaseUrl: undefined,
    postgresSchema: undefined,
    host: '127.0.0.1',
    httpPort: 8080,
    grpcPort: 50051,
    staticDir: undefined,
    bootstrapToken: undefined,
    bootstrapTenant: 'default',
    // The first token is for the first sign-in: make real tokens (npm run token) before it ends.
    bootstrapTokenTtlMs: 7 * 86_400_000,
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
    validationThreads: 2,
    validationTimeBudgetMs: 1_000,
    validationMemoryMb: 256,
    validationWarmStart: true,
    shutdownGraceMs: 10_000,
    trustedProxies: ['127.0.0.0/8', '::1'],
    auditRetentionDays: 365,
    signInFailureLimit: 20,
    signInFailureWindowSeconds: 60,
    refusalLimit: 100,
    refusalWindowSeconds: 10,
    allowedHosts: [],
    maxConnections: 1000,
    handshakeTimeoutSeconds: 30,
    idleTimeoutSeconds: 300,
    streamCredentialCheckSeconds: 10,
    previewMaxStoredDifferences: 10_000,
    previewMaxStoredBytes: 16 * 1024 * 1024,
    previewDifferencesTtlSeconds: 86_400,
    previewTenantMaxBytes: 256 * 1024 * 1024,

    // Previews copy a backup's values; 4 per tenant keep two replicas' slots from being all one
    // tenant's for long, and a viewer at its cap still sees its own results come in.
    operationPreviewCap: 4,
    operationTenantCap: 64,
    // Previews read a whole backup on the server's thread: one at a time leaves the other slot
    // (STORE_OPERATION_CONCURRENCY, 2) to captures and restores.
    operationPreviewSlots: 1,
    // One start a second on average, 20 at once: a console user never meets it, a script does.
    previewStartsPerMinute: 60,
    previewStartBurst: 20,
    // Retention that runs by itself is chosen per scope, never a default: nothing is deleted
    // behind an admin's back. When chosen, it stops rather than delete more than half of a scope.
    retentionApplyAfterScheduleDefault: false,
    retentionAutoMaxShare: 0.5,
    // Metrics answer on loopback unless the operator binds them wider (they name tenants).
    metricsPort: undefined,
    metricsHost: '127.0.0.1',
    metricsMaxScopes: 1000,
    operationStuckAfterSeconds: 900,
    // The StoreScopeNotProven rule's N (monitoring/store-alerts.yml says 7 days too).
    drillProofMaxAgeDays: 7,
    // Webhooks reach the public internet only unless the operator says otherwise (SSRF).
    notifyAllowPrivateTargets: false,
    notifyPauseAfter: 10,
    notifyTimeoutMs: 10_000,
    notifyDelivery: true,
    notifyPollMs: 2_000,
    smtpUrl: undefined,
    smtpFrom: undefined,
  };
}
