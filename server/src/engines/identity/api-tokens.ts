import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  TOUCH_GRANULARITY_MS,
  type RevocationWatch,
  type StoredToken,
  type TokenStore,
} from '../../storage/identity/token-store.js';
import { invalidArgument } from '../errors.js';
import { validateTenantId } from '../data/tree-names.js';
import { MIN_PRESET_TOKEN_LENGTH } from '../../config/settings.js';
import { CredentialError, parseRole, type Principal, type Role } from './principal.js';
import { TokenCache } from './token-cache.js';

const PREFIX = 'st';
const TOKEN_PATTERN = /^st_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/**
 * The id an API token names (its public prefix), whether or not the token verifies; undefined for
 * anything not shaped like one. Failed sign-ins are also counted per id, wherever they come from.
 */
export function apiTokenIdOf(credential: string): string | undefined {
  return TOKEN_PATTERN.exec(credential)?.[1];
}

/** What an operator sees of a token: never the secret. */
export interface TokenInfo {
  id: string;
  tenant: string;
  roles: Role[];
  name: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface IssueRequest {
  tenant: string;
  roles: readonly string[];
  name?: string;
  /** Lifetime in ms; undefined for a token that does not expire. */
  ttlMs?: number;
  /** Use this exact token (STORE_BOOTSTRAP_TOKEN); otherwise a random one is made. */
  presetToken?: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const info = (t: StoredToken): TokenInfo => ({
  id: t.id,
  tenant: t.tenant,
  roles: t.roles as Role[],
  name: t.name,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  revokedAt: t.revokedAt,
  lastUsedAt: t.lastUsedAt,
});

/**
 * API tokens made by the server: random, shown once, stored hashed, compared in constant time,
 * with a tenant, roles, an optional expiry and revocation.
 */
export class ApiTokenService {
  private readonly cache = new TokenCache();
  /** Secret hash → id of the preset tokens seen (a handful: the bootstrap token). */
  private readonly presetIds = new Map<string, string>();
  private watch: RevocationWatch | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Keeps verified tokens in memory for as long as revocations made anywhere can be watched
   * (see TokenCache and TokenStore.watchRevocations). Without it every call reads the table.
   */
  cacheWhileRevocationsAreWatched(): void {
    if (this.watch) return;
    this.watch = this.store.watchRevocations({
      revoked: (id) => this.cache.revoked(id),
      state: (live) => this.cache.setLive(live),
    });
  }

  /** Stops watching revocations (server shutdown). */
  async close(): Promise<void> {
    const watch = this.watch;
    this.watch = undefined;
    this.cache.setLive(false);
    await watch?.close();
  }

  /** Issues a token; the returned secret is the only time it is ever shown. */
  async issue(request: IssueRequest): Promise<{ token: string; info: TokenInfo }> {
    validateTenantId(request.tenant, 'tenant');
    const roles = request.roles.map((name, i) => {
      const role = parseRole(name);
      if (!role) throw invalidArgument(`roles[${i}]`, `${name} is not viewer, operator or admin`);
      return role;
    });
    if (roles.length === 0) throw invalidArgument('roles', 'at least one role is required');
    // The public id (shown as createdBy, logged) is random for every token: derived from the
    // secret, as it once was for a preset, it published a piece of the secret's unsalted hash.
    const id = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
    let token: string;
    if (request.presetToken !== undefined) {
      if (request.presetToken.length < MIN_PRESET_TOKEN_LENGTH) {
        throw invalidArgument(
          'token',
          `a preset token needs at least ${MIN_PRESET_TOKEN_LENGTH} characters`,
        );
      }
      token = request.presetToken;
    } else {
      token = `${PREFIX}_${id}_${randomBytes(32).toString('base64url')}`;
    }
    const now = this.clock();
    const stored: StoredToken = {
      id,
      tenant: request.tenant,
      roles,
      name: request.name ?? '',
      secretHash: sha256(token),
      createdAt: now,
      expiresAt: request.ttlMs === undefined ? null : now + request.ttlMs,
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.store.insert(stored);
    return { token, info: info(stored) };
  }

  /** Every token (or a tenant's), without secrets. */
  async list(tenant?: string): Promise<TokenInfo[]> {
    return (await this.store.list(tenant)).map(info);
  }

  /** Revokes a token; false when there is no such live token. */
  async revoke(id: string): Promise<boolean> {
    const revoked = await this.store.revoke(id, this.clock());
    // The watch reports it too, a moment later; this process must not serve it meanwhile.
    this.cache.revoked(id);
    return revoked;
  }

  /** One token's public facts (its name, tenant), without the secret; undefined when unknown. */
  async describe(id: string): Promise<TokenInfo | undefined> {
    const stored = await this.store.get(id);
    return stored && info(stored);
  }

  private async stored(id: string): Promise<StoredToken | undefined> {
    const now = this.clock();
    this.watch?.check();
    const cached = this.cache.get(id, now);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    const stored = await this.store.get(id);
    if (stored) this.cache.put(stored, ticket, now);
    return stored;
  }

  /**
   * A preset token names no id: it is found by its secret's hash once, then by the id found
   * (so the cache and revocation work as for any token).
   */
  private async storedPreset(secretHash: string): Promise<StoredToken | undefined> {
    const known = this.presetIds.get(secretHash);
    if (known !== undefined) return this.stored(known);
    const stored = await this.store.getBySecretHash(secretHash);
    if (stored) this.presetIds.set(secretHash, stored.id);
    return stored;
  }

  /** Whether any token was ever issued (an empty data directory has none). */
  async any(): Promise<boolean> {
    return (await this.store.count()) > 0;
  }

  /** Whether a credential has the shape of one of our tokens (or a preset bootstrap token). */
  looksLikeApiToken(credential: string): boolean {
    return TOKEN_PATTERN.test(credential) || !credential.includes('.');
  }

  /** Resolves a presented token to its principal, or throws CredentialError with the reason. */
  async verify(credential: string): Promise<Principal> {
    const match = TOKEN_PATTERN.exec(credential);
    const hash = sha256(credential);
    const stored =
      (match ? await this.stored(match[1] as string) : undefined) ??
      (await this.storedPreset(hash));
    const presented = Buffer.from(hash, 'hex');
    // Compare against a same-length hash even when the id is unknown, so timing says nothing.
    const expected = Buffer.from(stored?.secretHash ?? sha256(`missing:${credential}`), 'hex');
    const same = timingSafeEqual(presented, expected);
    if (!stored || !same) throw new CredentialError('unknown', 'unknown API token');
    if (stored.revokedAt !== null) throw new CredentialError('revoked', 'API token was revoked');
    const now = this.clock();
    if (stored.expiresAt !== null && stored.expiresAt <= now) {
      throw new CredentialError('expired', 'API token has expired');
    }
    // last_used_at is kept to a minute (TOUCH_GRANULARITY_MS): a poll within it writes nothing and
    // sends no statement; calls racing past the mark are absorbed by touch's own condition.
    if (stored.lastUsedAt === null || stored.lastUsedAt <= now - TOUCH_GRANULARITY_MS) {
      this.cache.used(stored.id, now);
      void this.store.touch(stored.id, now).catch(() => undefined);
    }
    return {
      subject: `token:${stored.id}`,
      displayName: stored.name || `API token ${stored.id}`,
      schemeId: 'bearer',
      anonymous: false,
      grants: new Map([[stored.tenant, stored.roles as Role[]]]),
    };
  }
}
