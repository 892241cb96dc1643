import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../config/settings.js';
import { localTokenChange } from '../engines/audit/audit-trail.js';
import { ApiTokenService } from '../engines/identity/api-tokens.js';
import { StoreError } from '../engines/errors.js';
import { randomUUID } from 'node:crypto';
import { AuditStore } from '../storage/audit/audit-store.js';
import { openStorage } from '../storage/database.js';
import { TokenStore } from '../storage/identity/token-store.js';
import { missingStoreReason } from './existing-store.js';

const USAGE = `Usage:
  npm run token -- create --tenant <tenant> --role <viewer|operator|admin> [--role …] [--name <text>] [--ttl <n>(m|h|d)]
  npm run token -- list [--tenant <tenant>]
  npm run token -- revoke <token id>
Storage comes from STORE_DATA_DIR / DATABASE_URL, as for the server, and must hold the server's store.`;

function parseTtl(value: string): number {
  const match = /^(\d+)([mhd])$/.exec(value);
  if (!match)
    throw new ConfigError(`--ttl: expected a number and m, h or d, got ${JSON.stringify(value)}`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** The token CLI: create, list and revoke API tokens against the configured storage. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const flags: Record<string, string[]> = {};
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg.startsWith('--')) {
      const value = rest[++i];
      if (value === undefined) throw new ConfigError(`${arg}: needs a value`);
      (flags[arg] ??= []).push(value);
    } else positional.push(arg);
  }
  if (command !== 'create' && command !== 'list' && command !== 'revoke') {
    console.log(USAGE);
    return command === undefined || command === 'help' ? 0 : 2;
  }
  const config = loadConfig({ env: process.env });
  // Never a second database by accident: opening storage would create and migrate one.
  const missing = await missingStoreReason(config, process.env);
  if (missing !== undefined) throw new ConfigError(missing);
  const storage = await openStorage({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    postgresSchema: config.postgresSchema,
  });
  const tokenStore = new TokenStore(storage);
  const tokens = new ApiTokenService(tokenStore);
  // Token changes made here are in the audit trail like any RPC's (subject "cli").
  const audit = (
    tenant: string,
    method: 'CreateToken' | 'RevokeToken',
    tokenId: string,
    outcome: string,
  ) =>
    new AuditStore(storage).insert([
      {
        id: randomUUID(),
        at: Date.now(),
        ...localTokenChange({ by: 'cli', tenant, method, tokenId, outcome }),
      },
    ]);
  try {
    switch (command) {
      case 'create': {
        const tenant = flags['--tenant']?.[0];
        if (!tenant) throw new ConfigError('--tenant is required');
        const ttl = flags['--ttl']?.[0];
        const { token, info } = await tokens.issue({
          tenant,
          roles: flags['--role'] ?? [],
          name: flags['--name']?.[0] ?? '',
          ...(ttl !== undefined && { ttlMs: parseTtl(ttl) }),
        });
        await audit(info.tenant, 'CreateToken', info.id, 'OK');
        console.log(`token id: ${info.id}  tenant: ${info.tenant}  roles: ${info.roles.join(',')}`);
        console.log(
          `expires:  ${info.expiresAt ? new Date(info.expiresAt).toISOString() : 'never'}`,
        );
        console.log(`\n${token}\n\nThis is the only time the token is shown.`);
        return 0;
      }
      case 'list': {
        for (const t of await tokens.list(flags['--tenant']?.[0])) {
          const state = t.revokedAt
            ? 'revoked'
            : t.expiresAt && t.expiresAt < Date.now()
              ? 'expired'
              : 'active';
          console.log(`${t.id}\t${t.tenant}\t${t.roles.join(',')}\t${state}\t${t.name}`);
        }
        return 0;
      }
      case 'revoke': {
        const id = positional[0];
        if (!id) throw new ConfigError('revoke needs a token id');
        const revoked = await tokens.revoke(id);
        const tenant = (await tokenStore.get(id))?.tenant ?? '';
        await audit(tenant, 'RevokeToken', id, revoked ? 'OK' : 'NOT_FOUND');
        console.log(revoked ? `revoked ${id}` : `no active token ${id}`);
        return revoked ? 0 : 1;
      }
    }
  } finally {
    await storage.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof StoreError) {
      console.error(`token: ${error.message}`);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  },
);
