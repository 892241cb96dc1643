import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reason } from '../../../test/support/credential-reason.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { TokenStore } from '../../storage/identity/token-store.js';
import { ApiTokenService } from './api-tokens.js';

describe.each(DIALECTS)('API tokens on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  async function setUp() {
    const storage = await freshStorage();
    let now = 1_000_000;
    const tokens = new ApiTokenService(new TokenStore(storage), () => now);
    return { storage, tokens, advance: (ms: number) => (now += ms) };
  }

  it('are random, stored only as a sha256 hash, and resolve to their tenant and roles', async () => {
    const { storage, tokens } = await setUp();
    const a = await tokens.issue({ tenant: 'acme', roles: ['operator'] });
    const b = await tokens.issue({ tenant: 'acme', roles: ['operator'] });
    expect(a.token).toMatch(/^st_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    const rows = await storage.db.selectFrom('api_tokens').selectAll().execute();
    const secretOf = (token: string) => /^st_[A-Za-z0-9]{12}_(.+)$/.exec(token)![1]!;
    expect(JSON.stringify(rows)).not.toContain(secretOf(a.token));
    expect(JSON.stringify(rows)).toContain(createHash('sha256').update(a.token).digest('hex'));
    expect(JSON.stringify(await tokens.list())).not.toContain(a.token);
    const principal = await tokens.verify(a.token);
    expect(principal.grants).toEqual(new Map([['acme', ['operator']]]));
  });

  it('a preset token gets a random public id (nothing of its hash), verifies, and is revocable', async () => {
    const { tokens } = await setUp();
    const preset = 'preset-admin-token-0123456789abcdef';
    const hash = createHash('sha256').update(preset).digest('hex');
    const issued = await tokens.issue({ tenant: 'acme', roles: ['admin'], presetToken: preset });
    expect(issued.token).toBe(preset);
    expect(issued.info.id).toMatch(/^[A-Za-z0-9]{12}$/);
    for (let at = 0; at + 6 <= hash.length; at++) {
      expect(issued.info.id).not.toContain(hash.slice(at, at + 6));
    }
    const principal = await tokens.verify(preset);
    expect(principal.subject).toBe(`token:${issued.info.id}`);
    expect(await reason(tokens.verify(`${preset}x`))).toBe('unknown');
    await tokens.revoke(issued.info.id);
    expect(await reason(tokens.verify(preset))).toBe('revoked');
  });

  it('refuses a preset token shorter than 32 characters', async () => {
    const { tokens } = await setUp();
    const short = 'x'.repeat(31);
    await expect(
      tokens.issue({ tenant: 'acme', roles: ['admin'], presetToken: short }),
    ).rejects.toThrow(/at least 32 characters/);
  });

  it('refuse a wrong secret under a real id, a revoked and an expired token, each with its reason', async () => {
    const { tokens, advance } = await setUp();
    const live = await tokens.issue({ tenant: 'acme', roles: ['viewer'] });
    // Same id, one character of the secret changed.
    const flipped = `${live.token.slice(0, -1)}${live.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await reason(tokens.verify(flipped))).toBe('unknown');
    const revoked = await tokens.issue({ tenant: 'acme', roles: ['viewer'] });
    expect(await tokens.revoke(revoked.info.id)).toBe(true);
    expect(await reason(tokens.verify(revoked.token))).toBe('revoked');
    const shortLived = await tokens.issue({ tenant: 'acme', roles: ['viewer'], ttlMs: 1000 });
    expect(await reason(tokens.verify(shortLived.token))).toBe('ok');
    advance(1000);
    expect(await reason(tokens.verify(shortLived.token))).toBe('expired');
    expect(await reason(tokens.verify(live.token))).toBe('ok');
  });
});
