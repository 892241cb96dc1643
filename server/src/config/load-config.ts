import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ArtifactLocation } from './artifact-location.js';
import { ConfigError, SETTINGS, defaults, type ServerConfig } from './settings.js';

export interface ConfigSources {
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Builds the configuration from, in rising precedence: defaults, an optional JSON file
 * (`--config FILE` or STORE_CONFIG_FILE, keys are the environment names), the environment, and
 * flags. Any unusable value throws ConfigError naming the setting.
 */
export function loadConfig(sources: ConfigSources = {}): ServerConfig {
  const argv = sources.argv ?? [];
  const env = sources.env ?? {};
  const flags = parseFlags(argv);
  const configFile = flags.get('--config') ?? env.STORE_CONFIG_FILE;
  const fileValues = configFile ? readConfigFile(configFile) : {};

  const config: Record<string, unknown> = { ...defaults() };
  for (const setting of SETTINGS) {
    const candidates: Array<[string, string | undefined]> = [
      [setting.flag, flags.get(setting.flag)],
      [setting.env, env[setting.env]],
      [`${setting.env} in ${configFile ?? ''}`, fileValues[setting.env]],
    ];
    const found = candidates.find(([, value]) => value !== undefined);
    if (found) config[setting.key] = setting.parse(found[1] as string, found[0]);
    flags.delete(setting.flag);
  }
  flags.delete('--config');
  const unknown = [...flags.keys()];
  if (unknown.length > 0) {
    throw new ConfigError(`unknown flag ${unknown[0]} (see --help)`);
  }

  const result = config as unknown as ServerConfig;
  result.dataDir = resolve(result.dataDir);
  resolveArtifactLocation(result);
  if (
    result.trustedTenant !== undefined &&
    result.authorizer !== 'allow-all' &&
    result.requireAuthorization
  ) {
    throw new ConfigError(
      'STORE_TRUSTED_TENANT: only with STORE_AUTHORIZER=allow-all or STORE_REQUIRE_AUTHORIZATION=false',
    );
  }
  if (result.oidcIssuer && !result.oidcClientId) {
    throw new ConfigError('STORE_OIDC_CLIENT_ID: required when STORE_OIDC_ISSUER is set');
  }
  return result;
}

/**
 * STORE_ARTIFACT_URL, or its older directory-only name STORE_ARTIFACT_DIR, or
 * `<data dir>/artifacts`: sets `artifactStore` (what the backup engine uses) and `artifactDir`.
 */
function resolveArtifactLocation(config: ServerConfig): void {
  const url = config.artifactStore as ArtifactLocation | undefined;
  const dir = config.artifactDir as string | undefined;
  const location: ArtifactLocation = url ?? {
    kind: 'directory',
    path: dir ?? join(config.dataDir, 'artifacts'),
  };
  if (location.kind === 'directory') location.path = resolve(location.path);
  if (url !== undefined && dir !== undefined) {
    if (location.kind !== 'directory' || location.path !== resolve(dir)) {
      throw new ConfigError(
        'STORE_ARTIFACT_URL and STORE_ARTIFACT_DIR name different places: set only STORE_ARTIFACT_URL (STORE_ARTIFACT_DIR is its older, directory-only name)',
      );
    }
  }
  // An s3:// location is reached (and its credentials checked) when the server starts (app.ts).
  config.artifactStore = location;
  config.artifactDir =
    location.kind === 'directory' ? location.path : join(config.dataDir, 'artifacts');
}

function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    } else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) {
        throw new ConfigError(`${arg}: needs a value`);
      }
      flags.set(arg, value);
      i++;
    }
  }
  return flags;
}

function readConfigFile(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`config file ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${path}: must hold a JSON object`);
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!SETTINGS.some((s) => s.env === key)) {
      throw new ConfigError(`config file ${path}: unknown setting ${key}`);
    }
    out[key] = String(value);
  }
  return out;
}

/** The --help text: every setting with its flag and environment name. */
export function helpText(): string {
  const rows = SETTINGS.map((s) => `  ${s.flag.padEnd(30)} ${s.env.padEnd(30)} ${s.describe}`);
  return [
    'Usage: npm start -- [flags]',
    '',
    '  flag                           environment',
    ...rows,
  ].join('\n');
}
