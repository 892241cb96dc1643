import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(DIALECTS)('IdentityService.ResolveSubjects on %s', (dialect) => {
  let t: TestServer;
  let viewer: { token: string; subject: string };
  let laptop: { subject: string };
  let unnamed: { subject: string };
  let otherTenant: { subject: string };

  beforeAll(async () => {
    t = await startTestServer(dialect);
    const issue = async (tenant: string, role: string, name?: string) => {
      const issued = await t.server.tokens.issue({
        tenant,
        roles: [role],
        ...(name !== undefined && { name }),
      });
      return { token: issued.token, subject: `token:${issued.info.id}` };
    };
    viewer = await issue('acme', 'viewer', 'dashboard screen');
    laptop = await issue('acme', 'operator', 'ops laptop');
    unnamed = await issue('acme', 'operator');
    otherTenant = await issue('globex', 'admin', 'globex secret project');
  });
  afterAll(async () => t?.dispose());

  const resolve = (subjects: string[], token = viewer.token) =>
    createClient(IdentityService, t.grpc).resolveSubjects({ subjects }, { headers: bearer(token) });

  it("names the tenant's tokens by their names, the caller too, and the server's own work", async () => {
    const { subjects } = await resolve([
      laptop.subject,
      viewer.subject,
      'scheduler',
      'cli',
      laptop.subject,
    ]);
    expect(subjects.map((s) => [s.subject, s.displayName, s.kind, s.named])).toEqual([
      [laptop.subject, 'ops laptop', 'token', true],
      [viewer.subject, 'dashboard screen', 'token', true],
      ['scheduler', 'Scheduler', 'system', true],
      ['cli', 'Token command line', 'system', true],
    ]);
  });

  it("never reveals another tenant's token name; unknown shapes come back as they are", async () => {
    const { subjects } = await resolve([
      otherTenant.subject,
      unnamed.subject,
      'token:doesnotexist',
      'oidc:grace',
      'someone',
    ]);
    const otherId = otherTenant.subject.slice('token:'.length);
    const unnamedId = unnamed.subject.slice('token:'.length);
    expect(subjects.map((s) => [s.displayName, s.kind, s.named])).toEqual([
      [`API token ${otherId}`, 'token', false],
      [`API token ${unnamedId}`, 'token', false],
      ['API token doesnotexist', 'token', false],
      ['grace', 'oidc', false],
      ['someone', 'unknown', false],
    ]);
    expect(JSON.stringify(subjects)).not.toContain('globex secret project');
  });

  it('refuses more than 200 subjects with InvalidArgument naming the limit', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `token:t${i}`);
    const error = await resolve(many).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(error?.code).toBe(Code.InvalidArgument);
    expect(error?.rawMessage).toContain('at most 200');
  });

  it('needs a credential', async () => {
    const error = await createClient(IdentityService, t.grpc)
      .resolveSubjects({ subjects: ['scheduler'] })
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    expect(error?.code).toBe(Code.PermissionDenied);
  });
});
