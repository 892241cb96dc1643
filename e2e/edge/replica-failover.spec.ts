// Issue 15: SIGKILL one replica while the operations page polls through Envoy: the console keeps
// working on the other (health checks and outlier detection eject the dead one; connect failures
// are retried on another host), and Envoy's admin stats show both replicas served traffic. Its
// own edge stack (fresh schema), so killing a replica disturbs no other test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { BackupControlService, TreeDataService } from '@store/contract';
import { startEdgeStack, type EdgeStack } from '../support/edge-stack';
import { upstreamRequests } from '../support/envoy-admin';
import { expect, test } from '../support/fixtures';

test.describe('a replica dies behind Envoy', () => {
  test.describe.configure({ timeout: 180_000 });
  let stack: EdgeStack;
  let workDir: string;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    workDir = mkdtempSync(join(tmpdir(), 'store-e2e-failover-'));
    stack = await startEdgeStack({
      workDir,
      webDir: process.env.E2E_WEB_DIR!,
      issuer: { issuer: process.env.E2E_OIDC_ISSUER!, audience: process.env.E2E_OIDC_AUDIENCE! },
    });
  });
  test.afterAll(async () => {
    await stack?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  test('SIGKILL of one replica while the operations page polls: the console keeps working', async ({
    page,
  }) => {
    const { baseUrl, adminToken } = stack.info;
    const transport = createGrpcWebTransport({
      baseUrl,
      httpVersion: '1.1',
      interceptors: [
        (next) => (request) => {
          request.header.set('authorization', `Bearer ${adminToken}`);
          return next(request);
        },
      ],
    });
    const trees = createClient(TreeDataService, transport);
    const backup = createClient(BackupControlService, transport);
    for (let n = 0; n < 40; n++)
      await trees.putEntry({ treeId: 'orders', key: `o-${n}`, valueJson: String(n) });

    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel('API token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in with API token' }).click();
    await expect(page.getByRole('navigation', { name: /main/i })).toBeVisible();
    await page.goto(`${baseUrl}/operations`);
    const before = await backup.startBackup({
      name: 'before the kill',
      scope: { treeId: 'orders' },
    });
    await expect(page.getByRole('row').filter({ hasText: before.operationId })).toContainText(
      'Succeeded',
      { timeout: 30_000 },
    );
    const servedBefore = await upstreamRequests(stack.edge.adminUrl);
    expect([...servedBefore.values()].every((count) => count > 0)).toBe(true);

    const [victim] = stack.edge.replicas;
    victim!.process.child.kill('SIGKILL');
    await victim!.process.exited;

    // The page keeps polling through Envoy; new work started now shows up and finishes on it.
    const handles = [];
    for (let n = 0; n < 6; n++)
      handles.push(
        await backup.startBackup({ name: `after the kill ${n}`, scope: { treeId: 'orders' } }),
      );
    for (const handle of handles)
      await expect(page.getByRole('row').filter({ hasText: handle.operationId })).toContainText(
        'Succeeded',
        { timeout: 45_000 },
      );
    // And the console's own calls work: another page, and a backup started from the console.
    await page.getByRole('link', { name: 'Backups' }).first().click();
    await expect(page.getByText('after the kill 5')).toBeVisible();
    await page.getByRole('button', { name: 'Start backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a backup' });
    await dialog.getByLabel('Name').fill('from the console');
    await dialog.getByLabel('Tree', { exact: true }).selectOption('orders');
    await dialog.getByRole('button', { name: 'Start full backup' }).click();
    await expect
      .poll(
        async () => (await backup.listBackups({ nameContains: 'from the console' })).backups.length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);

    const served = await upstreamRequests(stack.edge.adminUrl);
    expect(served.size).toBe(2);
    for (const [host, count] of served) expect(count, host).toBeGreaterThan(0);
    const survivor = `127.0.0.1:${stack.edge.replicas[1]!.grpcPort}`;
    expect(served.get(survivor)!).toBeGreaterThan(servedBefore.get(survivor)!);
  });
});
