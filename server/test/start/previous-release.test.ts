// Issue 15: today's server on a data directory written by the previous release (commit f3d711e,
// made by that code: test/fixtures/previous-release/make-fixture.ts) migrates it and keeps every
// tree, entry, backup (catalog and artifact bytes), schedule, policy and token, revocation
// included.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../support/server-process.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/previous-release/', import.meta.url));
const MIGRATIONS = fileURLToPath(new URL('../../src/storage/migrations/', import.meta.url));

interface Expected {
  madeBy: string;
  tokens: Record<string, { token: string; tenant: string; roles?: string[] }>;
  trees: Record<string, { treeId: string; entryCount: number; hasPolicy: boolean }[]>;
  entries: Record<string, [string, string][]>;
  backups: {
    backupId: string;
    name: string;
    kind: number;
    treeId: string;
    baseBackupId: string | null;
    entryCount: number;
    artifacts: { artifactId: string; sha256: string; byteSize: number }[];
  }[];
  policy: string;
  scheduleInterval: number;
}

const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;

describe(`a data directory written by the previous release (${expected.madeBy})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-previous-release-'));
  let server: ServerProcess;
  let transport: ReturnType<typeof createConnectTransport>;
  const as = (name: string) => {
    const { token, tenant } = expected.tokens[name]!;
    return { headers: { authorization: `Bearer ${token}`, 'store-active-tenant': tenant } };
  };

  beforeAll(async () => {
    execFileSync('tar', ['-xzf', join(FIXTURE, 'data.tar.gz'), '-C', dataDir]);
    server = await spawnServer({
      STORE_DATA_DIR: dataDir,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
    });
    transport = createConnectTransport({ baseUrl: server.httpUrl, httpVersion: '1.1' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is migrated to every migration of this release, without a new first-admin token', async () => {
    expect(server.output()).not.toContain('issued the first admin API token');
    const db = new SQLite(join(dataDir, 'store.sqlite'), { readonly: true });
    try {
      const applied = db.prepare('select name from kysely_migration').pluck().all() as string[];
      const shipped = readdirSync(MIGRATIONS)
        .filter((file) => /^\d{4}.*\.ts$/.test(file) && !file.endsWith('.test.ts'))
        .map((file) => file.replace(/\.ts$/, ''));
      expect(new Set(applied)).toEqual(new Set(shipped));
    } finally {
      db.close();
    }
  });

  it('every token still signs in with its tenant and roles; the revoked one stays revoked', async () => {
    const identity = createClient(IdentityService, transport);
    for (const name of ['admin', 'acme', 'viewer']) {
      const me = await identity.whoAmI({}, as(name));
      const { tenant, roles } = expected.tokens[name]!;
      expect(me.activeTenant).toBe(tenant);
      expect(me.tenants).toEqual([expect.objectContaining({ tenantId: tenant, roles })]);
    }
    const refused = await identity.whoAmI({}, as('revoked')).catch((e: unknown) => e);
    expect(ConnectError.from(refused).code).toBe(Code.Unauthenticated);
  });

  it('every tree and entry of both tenants is there', async () => {
    const trees = createClient(TreeDataService, transport);
    for (const [tenant, tokenName] of [
      ['default', 'admin'],
      ['acme', 'acme'],
    ] as const) {
      const listed = (await trees.listTrees({}, as(tokenName))).trees.map((t) => ({
        treeId: t.treeId,
        entryCount: Number(t.entryCount),
        hasPolicy: t.hasPolicy,
      }));
      expect(listed).toEqual(expected.trees[tenant]);
    }
    for (const [treeId, entries] of Object.entries(expected.entries)) {
      const listed = await trees.listEntries({ treeId, pageSize: 100 }, as('admin'));
      expect(listed.entries.map((e) => [e.key, e.valueJson])).toEqual(entries);
    }
  });

  it('every backup is in the catalog and its artifacts export with the recorded sha256', async () => {
    const backup = createClient(BackupControlService, transport);
    const listed = (await backup.listBackups({}, as('admin'))).backups;
    expect(
      listed.map((b) => ({
        backupId: b.backupId,
        name: b.name,
        kind: b.kind,
        treeId: b.treeId,
        baseBackupId: b.baseBackupId ?? null,
        entryCount: Number(b.entryCount),
        artifacts: b.artifacts.map((a) => ({
          artifactId: a.artifactId,
          sha256: a.sha256,
          byteSize: Number(a.byteSize),
        })),
      })),
    ).toEqual(expected.backups);
    for (const b of expected.backups) {
      for (const artifact of b.artifacts) {
        const hash = createHash('sha256');
        for await (const chunk of backup.exportArtifact(
          { backupId: b.backupId, artifactId: artifact.artifactId },
          as('admin'),
        ))
          hash.update(chunk.data);
        expect(hash.digest('hex')).toBe(artifact.sha256);
      }
    }
  });

  it('the schedule and the policy are kept', async () => {
    const backup = createClient(BackupControlService, transport);
    const status = await backup.getScopeStatus({ scope: { treeId: 'orders' } }, as('admin'));
    expect(status.fullScheduleRegistered).toBe(true);
    expect(Number(status.runtimeFullBackupInterval?.seconds)).toBe(expected.scheduleInterval);
    const schema = createClient(SchemaControlService, transport);
    const { policy } = await schema.getPolicy({ treeId: 'people' }, as('admin'));
    expect(policy?.jsonSchema).toBe(expected.policy);
    // The policy still enforces: under ENFORCE an entry without a name becomes a dead letter.
    const trees = createClient(TreeDataService, transport);
    const put = await trees.putEntry(
      { treeId: 'people', key: 'nameless', valueJson: '{}' },
      as('admin'),
    );
    expect(put.deadLettered).toBe(true);
  });
});
