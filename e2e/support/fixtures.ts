import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { test as base, expect, type Page } from '@playwright/test';
import {
  BackupControlService,
  BackupInsightService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
// The package index does not re-export schema_insight_pb; its generated module directly.
import { SchemaInsightService } from '../../proto/gen/store/insight/v1/schema_insight_pb';
import { authedGrpcWebTransport } from './authed-transport';
import { repoRoot } from './stack';

export { expect };

export interface IssuedToken {
  id: string;
  token: string;
  tenant: string;
}

/** Typed clients of the running server for seeding and checking state behind the console. */
export interface StoreApi {
  backup: Client<typeof BackupControlService>;
  schema: Client<typeof SchemaControlService>;
  data: Client<typeof TreeDataService>;
  schemaInsight: Client<typeof SchemaInsightService>;
  backupInsight: Client<typeof BackupInsightService>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through playwright.config.ts`);
  return value;
}

function tokenCli(args: string[]): string {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'server/src/cli/token-cli.ts'), ...args],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        ...process.env,
        ...(process.env.E2E_DATA_DIR ? { STORE_DATA_DIR: process.env.E2E_DATA_DIR } : {}),
      },
    },
  );
  if (result.status !== 0) throw new Error(`token ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Issues a real API token through the token CLI, against the server's own storage. */
export function issueToken(tenant: string, roles: string[], name = 'e2e'): IssuedToken {
  const out = tokenCli([
    'create',
    '--tenant',
    tenant,
    ...roles.flatMap((role) => ['--role', role]),
    '--name',
    name,
  ]);
  const id = /token id: (\S+)/.exec(out)?.[1];
  const token = /^(st_\S+)$/m.exec(out)?.[1];
  if (!id || !token) throw new Error(`unexpected token CLI output:\n${out}`);
  return { id, token, tenant };
}

export function revokeToken(id: string): void {
  tokenCli(['revoke', id]);
}

/** Clients with a credential and active tenant, over gRPC-Web like the browser. */
export function storeApi(token: string, tenant: string): StoreApi {
  const transport = authedGrpcWebTransport(required('E2E_BASE_URL'), token, tenant);
  return {
    backup: createClient(BackupControlService, transport),
    schema: createClient(SchemaControlService, transport),
    data: createClient(TreeDataService, transport),
    schemaInsight: createClient(SchemaInsightService, transport),
    backupInsight: createClient(BackupInsightService, transport),
  };
}

/** Signs in through the console's API-token form and waits for the shell. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in with API token' }).click();
  await expect(page.getByRole('navigation', { name: /main/i })).toBeVisible();
}

/**
 * Points a worker at its project's stack. Workers run one project each; those of `edge` get the
 * Envoy stack's settings under the names every helper reads (E2E_BASE_URL, the token CLI's
 * DATABASE_URL/STORE_PG_SCHEMA, E2E_ARTIFACT_DIR), so every spec runs unchanged through Envoy.
 */
function useProjectStack(project: string): void {
  if (project !== 'edge') return;
  const edge = (name: string) => process.env[`E2E_EDGE_${name}`];
  if (!edge('BASE_URL')) throw new Error('the edge stack was not started (see global-setup.ts)');
  process.env.E2E_BASE_URL = edge('BASE_URL');
  process.env.E2E_ADMIN_TOKEN = edge('ADMIN_TOKEN');
  process.env.E2E_ARTIFACT_DIR = edge('ARTIFACT_DIR');
  process.env.E2E_OIDC_TENANT = edge('OIDC_TENANT');
  process.env.DATABASE_URL = edge('DATABASE_URL');
  process.env.STORE_PG_SCHEMA = edge('PG_SCHEMA');
  delete process.env.E2E_DATA_DIR;
}

interface Fixtures {
  /** A fresh tenant with its own admin token, so tests never see each other's data. */
  tenant: { name: string; admin: IssuedToken; api: StoreApi };
  /** The bootstrap admin of tenant "default". */
  bootstrapToken: string;
}

let tenantCounter = 0;

export const test = base.extend<Fixtures, { projectStack: void }>({
  projectStack: [
    async ({}, use, workerInfo) => {
      useProjectStack(workerInfo.project.name);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  baseURL: async ({}, use) => use(required('E2E_BASE_URL')),
  bootstrapToken: async ({}, use) => use(required('E2E_ADMIN_TOKEN')),
  tenant: async ({}, use, testInfo) => {
    const name = `e2e-w${testInfo.workerIndex}-${process.pid}-${++tenantCounter}`;
    const admin = issueToken(name, ['admin']);
    await use({ name, admin, api: storeApi(admin.token, name) });
  },
});
