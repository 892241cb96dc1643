import { describe, expect, it } from 'vitest';
import type { StoredToken } from '../../storage/identity/token-store.js';
import { TokenCache } from './token-cache.js';

const token = (id: string): StoredToken => ({
  id,
  tenant: 'acme',
  roles: ['viewer'],
  name: '',
  secretHash: 'h',
  createdAt: 0,
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
});

function liveCache(maxAgeMs = 30_000) {
  const cache = new TokenCache(maxAgeMs);
  cache.setLive(true);
  return cache;
}

describe('TokenCache', () => {
  it('serves nothing until revocations are watched, and drops everything when the watch is lost', () => {
    const cache = new TokenCache();
    cache.put(token('a'), cache.ticket(), 0);
    expect(cache.get('a', 0)).toBeUndefined();
    cache.setLive(true);
    cache.put(token('a'), cache.ticket(), 0);
    expect(cache.get('a', 0)?.id).toBe('a');
    cache.setLive(false);
    expect(cache.get('a', 0)).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('forgets a revoked token', () => {
    const cache = liveCache();
    cache.put(token('a'), cache.ticket(), 0);
    cache.put(token('b'), cache.ticket(), 0);
    cache.revoked('a');
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)?.id).toBe('b');
  });

  it('does not keep a read that began before a revocation or a watch change arrived', () => {
    const cache = liveCache();
    const beforeRevocation = cache.ticket();
    cache.revoked('a');
    cache.put(token('a'), beforeRevocation, 0);
    expect(cache.get('a', 0)).toBeUndefined();
    const beforeLoss = cache.ticket();
    cache.setLive(false);
    cache.setLive(true);
    cache.put(token('a'), beforeLoss, 0);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('ages entries out after maxAgeMs', () => {
    const cache = liveCache(1_000);
    cache.put(token('a'), cache.ticket(), 0);
    expect(cache.get('a', 1_000)?.id).toBe('a');
    expect(cache.get('a', 1_001)).toBeUndefined();
  });

  it('records a use in the cached copy', () => {
    const cache = liveCache();
    cache.put(token('a'), cache.ticket(), 0);
    cache.used('a', 42);
    expect(cache.get('a', 0)?.lastUsedAt).toBe(42);
  });
});
