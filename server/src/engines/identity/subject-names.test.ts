import { describe, expect, it } from 'vitest';
import type { TokenInfo } from './api-tokens.js';
import type { Principal } from './principal.js';
import { SubjectDirectory } from './subject-names.js';

const token = (id: string, tenant: string, name: string): TokenInfo => ({
  id,
  tenant,
  roles: ['viewer'],
  name,
  createdAt: 0,
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
});

const tokens = new Map([
  ['a1', token('a1', 'acme', 'ops laptop')],
  ['b1', token('b1', 'globex', 'globex box')],
  ['c1', token('c1', 'acme', '')],
]);
const directory = new SubjectDirectory({ describe: async (id) => tokens.get(id) });

const caller = (subject: string, displayName: string): Principal => ({
  subject,
  displayName,
  schemeId: 'oidc',
  anonymous: false,
  grants: new Map([['acme', ['viewer']]]),
});

describe('SubjectDirectory', () => {
  it('names the caller by the display name of its credential', async () => {
    const [me, unnamedOwn] = [
      ...(await directory.resolve(['oidc:u1'], 'acme', caller('oidc:u1', 'Grace Hopper'))),
      ...(await directory.resolve(['token:c1'], 'acme', caller('token:c1', 'API token c1'))),
    ];
    expect(me).toEqual({
      subject: 'oidc:u1',
      displayName: 'Grace Hopper',
      kind: 'oidc',
      named: true,
    });
    expect(unnamedOwn?.displayName).toBe('API token c1');
  });

  it("names a token only for its own tenant's callers", async () => {
    const who = caller('oidc:u1', 'Grace');
    const [mine] = await directory.resolve(['token:a1'], 'acme', who);
    const [theirs] = await directory.resolve(['token:b1'], 'acme', who);
    expect(mine?.displayName).toBe('ops laptop');
    expect(theirs).toEqual({
      subject: 'token:b1',
      displayName: 'API token b1',
      kind: 'token',
      named: false,
    });
  });

  it('answers each subject once, in the order asked', async () => {
    const names = await directory.resolve(
      ['scheduler', 'token:a1', 'scheduler', 'health-monitor', 'retention'],
      'acme',
      caller('oidc:u1', 'Grace'),
    );
    expect(names.map((n) => n.displayName)).toEqual([
      'Scheduler',
      'ops laptop',
      'Health monitor',
      'Automatic retention',
    ]);
  });

  it('refuses an oversized request', async () => {
    const who = caller('oidc:u1', 'Grace');
    await expect(directory.resolve(new Array(201).fill('cli'), 'acme', who)).rejects.toThrow(
      /subjects: at most 200/,
    );
    await expect(directory.resolve(['x'.repeat(513)], 'acme', who)).rejects.toThrow(
      /subjects\[0\]: is longer than 512/,
    );
  });
});
