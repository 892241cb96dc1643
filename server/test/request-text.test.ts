// A NUL character cannot be stored in PostgreSQL text but can in SQLite: without a guard the same
// request failed as Internal on one database and was stored on the other. Every string a request
// carries is checked, so both answer InvalidArgument naming the field.
import { ScalarType, create, type DescMessage } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';

const TOKEN = 'request-text-admin-token-0123456789';
const SERVICES = [BackupControlService, SchemaControlService, TreeDataService, IdentityService];

/** Paths of the string fields of a request: its own and those of its direct sub-messages. */
function stringPaths(message: DescMessage, depth = 0): string[][] {
  const paths: string[][] = [];
  for (const field of message.fields) {
    if (field.fieldKind === 'scalar' && field.scalar === ScalarType.STRING) {
      paths.push([field.localName]);
    }
    if (field.fieldKind === 'message' && depth === 0) {
      for (const inner of stringPaths(field.message, 1)) paths.push([field.localName, ...inner]);
    }
  }
  return paths;
}

function requestWith(path: string[], value: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (const name of path.slice(0, -1)) node = (node[name] = {}) as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return root;
}

const snake = (path: string[]) =>
  path.map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.');

describe.each(DIALECTS)('request text on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_BOOTSTRAP_TOKEN: TOKEN });
  });
  afterAll(async () => t?.dispose());

  async function outcome(
    service: (typeof SERVICES)[number],
    method: (typeof SERVICES)[number]['methods'][number],
    init: Record<string, unknown>,
  ): Promise<ConnectError | 'ok'> {
    const client = createClient(service, t.grpc) as unknown as Record<
      string,
      (request: unknown, options: unknown) => unknown
    >;
    const call = client[method.localName]!(create(method.input, init as never), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    try {
      if (method.methodKind === 'server_streaming') {
        for await (const _ of call as AsyncIterable<unknown>) void _;
      } else await call;
      return 'ok';
    } catch (error) {
      return ConnectError.from(error);
    }
  }

  it('a NUL in any string field of any RPC is InvalidArgument naming the field, never Internal', async () => {
    let checked = 0;
    for (const service of SERVICES) {
      for (const method of service.methods) {
        if (method.name === 'GetAuthScheme') continue;
        for (const path of stringPaths(method.input)) {
          const result = await outcome(service, method, requestWith(path, 'a\u0000b'));
          const label = `${method.name} ${path.join('.')}`;
          expect(result, label).not.toBe('ok');
          if (result === 'ok') continue;
          expect(Code[result.code], `${label}: ${result.message}`).toBe('InvalidArgument');
          expect(result.rawMessage, label).toContain(snake(path));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('a NUL in a map key or value or a list item is refused the same way', async () => {
    const start = BackupControlService.method.startBackup;
    const scope = { treeId: 'orders' };
    const inKey = await outcome(BackupControlService, start, {
      name: 'n',
      scope,
      labels: { 'a\u0000': 'x' },
    });
    const inValue = await outcome(BackupControlService, start, {
      name: 'n',
      scope,
      labels: { a: 'x\u0000' },
    });
    const inList = await outcome(BackupControlService, BackupControlService.method.startBackupSet, {
      name: 'n',
      scopes: [scope, { treeId: 'x\u0000' }],
    });
    for (const result of [inKey, inValue, inList]) {
      expect(result).not.toBe('ok');
      if (result !== 'ok') expect(Code[result.code]).toBe('InvalidArgument');
    }
  });
});
