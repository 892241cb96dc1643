// Issue 15: what only the real edge can show. Runs in the `edge` project only, against the stack
// global-setup starts: Envoy 1.40 with proxy/envoy.yaml → two replicas on PostgreSQL.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  IdentityService,
  StoreOperationState,
  TreeDataService,
} from '@store/contract';
import { seedIncompressibleTree } from '../support/big-tree';
import { envoyStat, upstreamRequests } from '../support/envoy-admin';
import { expect, issueToken, signInWithToken, storeApi, test } from '../support/fixtures';
import { withoutSaveFilePicker } from '../support/save-file';

const ALLOWED_ORIGIN = 'https://console.store.example';
const adminUrl = () => {
  const url = process.env.E2E_EDGE_ADMIN_URL;
  if (!url) throw new Error('E2E_EDGE_ADMIN_URL is not set: run through playwright.config.ts');
  return url;
};
const edgeClient = (token: string | undefined, tenant?: string) =>
  createGrpcWebTransport({
    baseUrl: process.env.E2E_BASE_URL!,
    httpVersion: '1.1',
    interceptors: [
      (next) => (request) => {
        if (token) request.header.set('authorization', `Bearer ${token}`);
        if (tenant) request.header.set('store-active-tenant', tenant);
        return next(request);
      },
    ],
  });
const codeOf = async (call: Promise<unknown>) =>
  call.then(
    () => 'OK',
    (error: unknown) => Code[ConnectError.from(error).code],
  );

test.describe('through Envoy', () => {
  test('the console is served by Envoy, and unary and streaming gRPC-Web calls go through it', async ({
    page,
    tenant,
  }) => {
    await tenant.api.data.putEntry({ treeId: 'letters', key: 'a', valueJson: '"alpha"' });
    const before = await envoyStat(adminUrl(), 'cluster.store_grpc.upstream_rq_total');
    const rpcs: { path: string; server?: string; type?: string }[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/store.'))
        rpcs.push({
          path,
          server: response.headers()['server'],
          type: response.headers()['content-type'],
        });
    });
    const shell = await page.request.get('/');
    expect(shell.headers()['server']).toBe('envoy');
    await signInWithToken(page, tenant.admin.token);
    await page.goto('/trees/letters');
    await expect(page.getByText('alpha')).toBeVisible();
    expect(rpcs.length).toBeGreaterThan(0);
    for (const rpc of rpcs) {
      expect(rpc.server, rpc.path).toBe('envoy');
      expect(rpc.type, rpc.path).toMatch(/^application\/grpc-web/);
    }
    // A server stream through Envoy (StreamBackups), from Node, item by item.
    const backup = createClient(BackupControlService, edgeClient(tenant.admin.token, tenant.name));
    const started = await backup.startBackup({ name: 'streamed', scope: { treeId: 'letters' } });
    await expect
      .poll(
        async () =>
          (await backup.getBackupOperationStatus({ operationId: started.operationId })).status
            ?.state,
      )
      .toBe(StoreOperationState.SUCCEEDED);
    const streamed: string[] = [];
    for await (const manifest of backup.streamBackups({})) streamed.push(manifest.name);
    expect(streamed).toEqual(['streamed']);
    expect(await envoyStat(adminUrl(), 'cluster.store_grpc.upstream_rq_total')).toBeGreaterThan(
      before,
    );
  });

  test('errors arrive with grpc-status and grpc-message', async ({ page }) => {
    await page.goto('/sign-in');
    const answer = await page.evaluate(async () => {
      const response = await fetch('/store.identity.v1.IdentityService/WhoAmI', {
        method: 'POST',
        headers: {
          'content-type': 'application/grpc-web+proto',
          'x-grpc-web': '1',
          authorization: 'Bearer not-a-token',
        },
        body: new Uint8Array([0, 0, 0, 0, 0]),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      // gRPC-Web: a trailer frame has flag 0x80; its payload is HTTP/1-style header lines.
      const trailerAt = bytes.findIndex((byte, i) => byte === 0x80 && i + 5 <= bytes.length);
      return {
        status: response.status,
        headerStatus: response.headers.get('grpc-status'),
        trailers: new TextDecoder().decode(bytes.slice(trailerAt + 5)),
      };
    });
    expect(answer.status).toBe(200);
    const status = answer.headerStatus ?? /grpc-status:\s*(\d+)/.exec(answer.trailers)?.[1];
    expect(status).toBe(String(Code.Unauthenticated));
    expect(decodeURIComponent(/grpc-message:\s*(.*)/.exec(answer.trailers)?.[1] ?? '')).toMatch(
      /credential/,
    );
    // The same through a gRPC-Web client: code and message intact.
    const refused = await createClient(IdentityService, edgeClient('not-a-token'))
      .whoAmI({})
      .catch((error: unknown) => ConnectError.from(error));
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.Unauthenticated);
    expect((refused as ConnectError).rawMessage).toMatch(/credential/);
  });

  test('a CORS preflight from the allowed origin passes; any other origin is refused', async ({
    page,
  }) => {
    const preflight = (origin: string) =>
      fetch(`${process.env.E2E_BASE_URL}/store.identity.v1.IdentityService/WhoAmI`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'content-type,x-grpc-web,authorization,store-active-tenant',
        },
      });
    const allowed = await preflight(ALLOWED_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(
      /authorization.*store-active-tenant/,
    );
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/grpc-status/);
    for (const origin of ['http://localhost:5173', 'https://evil.example']) {
      const refused = await preflight(origin);
      expect(refused.headers.get('access-control-allow-origin'), origin).toBeNull();
    }

    // And in the browser: a page of another origin cannot call the API through Envoy.
    const other: Server = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>other</title>'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as { port: number }).port;
      await page.goto(`http://127.0.0.1:${port}/`);
      const outcome = await page.evaluate(async (api) => {
        try {
          await fetch(`${api}/store.identity.v1.IdentityService/WhoAmI`, {
            method: 'POST',
            headers: { 'content-type': 'application/grpc-web+proto', authorization: 'Bearer x' },
            body: new Uint8Array([0, 0, 0, 0, 0]),
          });
          return 'answered';
        } catch (error) {
          return String(error);
        }
      }, process.env.E2E_BASE_URL!);
      expect(outcome).toMatch(/TypeError/);
    } finally {
      other.close();
    }
  });

  test('the authorization and active-tenant headers pass through to the replicas', async ({
    tenant,
  }) => {
    const identity = (token?: string, active?: string) =>
      createClient(IdentityService, edgeClient(token, active)).whoAmI({});
    expect((await identity(tenant.admin.token, tenant.name)).activeTenant).toBe(tenant.name);
    // Without a credential rbac refuses the call as it refuses a caller without the role.
    expect(await codeOf(identity(undefined, tenant.name))).toBe('PermissionDenied');
    // The replica saw the header: a tenant the token has no grant in is refused.
    expect(await codeOf(identity(tenant.admin.token, 'someone-else'))).toBe('PermissionDenied');
  });

  test('a request over the size limit is refused with ResourceExhausted', async ({ tenant }) => {
    const trees = createClient(TreeDataService, edgeClient(tenant.admin.token, tenant.name));
    const huge = JSON.stringify('x'.repeat(5 * 1024 * 1024));
    expect(await codeOf(trees.putEntry({ treeId: 'big', key: 'k', valueJson: huge }))).toBe(
      'ResourceExhausted',
    );
    // The edge and the replica are fine afterwards.
    expect(await codeOf(trees.putEntry({ treeId: 'big', key: 'k', valueJson: '1' }))).toBe('OK');
  });
});

test.describe('a 50 MB export through Envoy', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  // Values are random base64: gzip keeps ~76 % of them, so 72 MiB of values → ~54 MiB artifact.
  const EXPORT_BYTES = 72 * 1024 * 1024;
  let owner: { tenant: string; token: string; backupId: string; artifactId: string; sha: string };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const tenant = `edge-export-${process.pid}`;
    const admin = issueToken(tenant, ['admin']);
    const api = storeApi(admin.token, tenant);
    await seedIncompressibleTree(api, tenant, 'blobs', EXPORT_BYTES);
    const started = await api.backup.startBackup({ name: 'big', scope: { treeId: 'blobs' } });
    await expect
      .poll(
        async () =>
          (await api.backup.getBackupOperationStatus({ operationId: started.operationId })).status
            ?.state,
        {
          timeout: 120_000,
        },
      )
      .toBe(StoreOperationState.SUCCEEDED);
    const [big] = (await api.backup.listBackups({ treeId: 'blobs' })).backups;
    const artifact = big!.artifacts[0]!;
    expect(Number(artifact.byteSize)).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    owner = {
      tenant,
      token: admin.token,
      backupId: big!.backupId,
      artifactId: artifact.artifactId,
      sha: artifact.sha256,
    };
  });

  test('downloads in the browser with its sha256 intact', async ({ page }) => {
    // The Blob-parts path, which Playwright sees as a download.
    await withoutSaveFilePicker(page);
    await signInWithToken(page, owner.token);
    await page.goto(`/backups/${encodeURIComponent(owner.backupId)}`);
    const download = page.waitForEvent('download', { timeout: 180_000 });
    await page.getByRole('button', { name: `Export ${owner.artifactId}` }).click();
    const file = await (await download).path();
    const bytes = await readFile(file);
    expect(bytes.length).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(owner.sha);
  });

  test("a slow reader's export outlives Envoy's 15 s default route timeout", async () => {
    const backup = createClient(BackupControlService, edgeClient(owner.token, owner.tenant));
    const hash = createHash('sha256');
    const started = Date.now();
    let received = 0;
    for await (const chunk of backup.exportArtifact({
      backupId: owner.backupId,
      artifactId: owner.artifactId,
    })) {
      hash.update(chunk.data);
      received += chunk.data.length;
      // Read at most ~3 MB/s: the stream stays open for about 20 s.
      const due = started + (received / (3 * 1024 * 1024)) * 1000;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    }
    expect(Date.now() - started).toBeGreaterThan(16_000);
    expect(hash.digest('hex')).toBe(owner.sha);
  });

  test('both replicas served RPCs (Envoy balances across them)', async () => {
    const served = await upstreamRequests(adminUrl());
    expect(served.size).toBe(2);
    for (const [host, count] of served) expect(count, host).toBeGreaterThan(0);
  });
});
