import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

const SECRET = 'tenant-other-secret-value';

/** ≥ 200 crafted tree names: traversal, scoping tricks, encodings, NUL, look-alikes, huge names. */
function craftedNames(): string[] {
  const stems = [
    'secret',
    '..',
    '.',
    '../secret',
    '../../secret',
    't/other/secret',
    'other/secret',
    '/secret',
    'secret/',
    't/other',
    '%2e%2e',
    '%2e%2e%2fsecret',
    '..%2fsecret',
    '%2F',
    'secret\u0000',
    '\u0000',
    'sеcret' /* Cyrillic е */,
    'ｓecret' /* full-width */,
    'secret\u200b',
    'secret ',
    ' secret',
    'secret\n',
    'x'.repeat(129),
    'x'.repeat(10_240),
    '',
    'a:b',
    'a;b',
    'a\\b',
    '*',
    '%',
    '_',
    'secret%',
    "secret'",
    'secret"',
    '$(ls)',
    '${x}',
    'secret--',
    "'; drop table entries; --",
    '🙂',
    'ＳＥＣＲＥＴ',
    '..\\secret',
    'SECRET',
    'Secret',
    'secret.',
    '.secret',
    't%2Fother%2Fsecret',
  ];
  const wrappers = [
    (s: string) => s,
    (s: string) => `t/other/${s}`,
    (s: string) => `../${s}`,
    (s: string) => `${s}/..`,
    (s: string) => encodeURIComponent(s),
  ];
  return [...new Set(stems.flatMap((stem) => wrappers.map((wrap) => wrap(stem))))];
}

describe('tenant isolation', () => {
  let t: TestServer;
  let attacker: string;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    const owner = (await t.server.tokens.issue({ tenant: 'other', roles: ['admin'] })).token;
    attacker = (await t.server.tokens.issue({ tenant: 'default', roles: ['admin'] })).token;
    const data = createClient(TreeDataService, t.grpc);
    await data.putEntry(
      { treeId: 'secret', key: 'k', valueJson: JSON.stringify(SECRET) },
      { headers: { authorization: `Bearer ${owner}` } },
    );
  });
  afterAll(async () => t?.dispose());

  it('crafted tree names give InvalidArgument or a miss, never another tenant’s data', async () => {
    const names = craftedNames();
    expect(names.length).toBeGreaterThanOrEqual(200);
    const data = createClient(TreeDataService, t.grpc);
    const headers = { authorization: `Bearer ${attacker}` };
    const codes = new Map<string, number>();
    for (const name of names) {
      const attempts = [
        () => data.getEntry({ treeId: name, key: 'k' }, { headers }),
        () => data.listEntries({ treeId: name }, { headers }),
        () => data.deleteEntry({ treeId: name, key: 'k' }, { headers }),
      ];
      for (const attempt of attempts) {
        try {
          const response = await attempt();
          expect(
            JSON.stringify(response, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
          ).not.toContain(SECRET);
          codes.set('miss', (codes.get('miss') ?? 0) + 1);
        } catch (error) {
          const code = ConnectError.from(error).code;
          expect(
            [Code.InvalidArgument, Code.ResourceExhausted],
            `${JSON.stringify(name).slice(0, 40)}`,
          ).toContain(code);
          codes.set(Code[code], (codes.get(Code[code]) ?? 0) + 1);
        }
      }
    }
    expect(codes.get('InvalidArgument')).toBeGreaterThan(100);
    // The owner's entry is still there and unchanged.
    const owner = (await t.server.tokens.issue({ tenant: 'other', roles: ['viewer'] })).token;
    const entry = await data.getEntry(
      { treeId: 'secret', key: 'k' },
      { headers: { authorization: `Bearer ${owner}` } },
    );
    expect(entry.entry?.valueJson).toBe(JSON.stringify(SECRET));
  });
});
