import { ConnectError, createClient, type Code } from '@connectrpc/connect';
import {
  StoreOperationState,
  TreeDataService,
  createSchemaClient,
  type SchemaClient,
  type StoreOperationStatus,
} from '@store/contract';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../src/storage/database.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A policy requiring an object with a string `name`. */
export const NAMED = JSON.stringify({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
});

const TERMINAL = [
  StoreOperationState.SUCCEEDED,
  StoreOperationState.FAILED,
  StoreOperationState.CANCELLED,
];

/** Call options carrying a bearer token. */
export function as(token: string) {
  return { headers: { authorization: `Bearer ${token}` } };
}

/** The gRPC code a call failed with (throws when it succeeded). */
export async function codeOf(promise: Promise<unknown>): Promise<Code> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error).code;
  }
  throw new Error('expected the call to fail');
}

/** A real server with tokens per role in tenant `default` and an admin of tenant `other`. */
export interface SchemaHarness {
  t: TestServer;
  schema: SchemaClient;
  tokens: Record<'viewer' | 'operator' | 'admin' | 'other', string>;
  admin: ReturnType<typeof as>;
  put(treeId: string, key: string, value: unknown): ReturnType<DataClient['putEntry']>;
  get(treeId: string, key: string): Promise<Awaited<ReturnType<DataClient['getEntry']>>['entry']>;
  /** Polls a schema operation until it is terminal. */
  settle(operationId: string): Promise<StoreOperationStatus>;
}

type DataClient = ReturnType<typeof createClient<typeof TreeDataService>>;

/** Starts the server over gRPC-Web and issues the tokens. */
export async function startSchemaHarness(dialect: Dialect): Promise<SchemaHarness> {
  const t = await startTestServer(dialect);
  const schema = createSchemaClient(t.grpcWeb);
  const data = createClient(TreeDataService, t.grpcWeb);
  const issue = async (tenant: string, role: string) =>
    (await t.server.tokens.issue({ tenant, roles: [role] })).token;
  const tokens = {
    viewer: await issue('default', 'viewer'),
    operator: await issue('default', 'operator'),
    admin: await issue('default', 'admin'),
    other: await issue('other', 'admin'),
  };
  const admin = as(tokens.admin);
  return {
    t,
    schema,
    tokens,
    admin,
    put: (treeId, key, value) =>
      data.putEntry({ treeId, key, valueJson: JSON.stringify(value) }, admin),
    get: async (treeId, key) => (await data.getEntry({ treeId, key }, admin)).entry,
    async settle(operationId) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const status = await schema.getSchemaOperationStatus(operationId, admin);
        if (status && TERMINAL.includes(status.state)) return status;
        if (Date.now() > deadline) throw new Error(`operation ${operationId} did not finish`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/**
 * Starts a harness before the enclosing suite's tests and disposes of it after them. The object
 * is filled in by beforeAll, so read its fields inside tests and hooks, not at collection time.
 */
export function useSchemaHarness(dialect: Dialect): SchemaHarness {
  const harness = {} as SchemaHarness;
  beforeAll(async () => {
    Object.assign(harness, await startSchemaHarness(dialect));
  });
  afterAll(async () => {
    await (harness as Partial<SchemaHarness>).t?.dispose();
  });
  return harness;
}
