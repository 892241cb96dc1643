import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startStack } from './support/stack';

/**
 * Starts the real stack unless E2E_BASE_URL points at one already running (for example behind
 * Envoy); then E2E_ADMIN_TOKEN and E2E_DATA_DIR (or DATABASE_URL) must name its admin token and
 * storage. Workers read the stack from the environment set here.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) {
    if (!process.env.E2E_ADMIN_TOKEN) throw new Error('E2E_BASE_URL needs E2E_ADMIN_TOKEN');
    if (!process.env.E2E_DATA_DIR && !process.env.DATABASE_URL)
      throw new Error('E2E_BASE_URL needs E2E_DATA_DIR or DATABASE_URL (for the token CLI)');
    process.env.E2E_OIDC_TENANT ??= 'default';
    return undefined;
  }
  const logDir = join(repoRoot, 'test-results');
  mkdirSync(logDir, { recursive: true });
  const stack = await startStack(logDir);
  process.env.E2E_BASE_URL = stack.info.baseUrl;
  process.env.E2E_ADMIN_TOKEN = stack.info.adminToken;
  process.env.E2E_DATA_DIR = stack.info.dataDir;
  process.env.E2E_OIDC_TENANT = stack.info.oidcTenant;
  return () => stack.stop();
}
