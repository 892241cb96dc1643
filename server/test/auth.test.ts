import { Code, createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { RestoreDrillPlanService } from '@store/contract/gen/store/drills/v1/drill_plans_pb.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAST_ROLE_BY_METHOD } from './support/least-roles.js';
import { callMethod, everyMethod } from './support/call-every-rpc.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';

const SERVICES = [
  BackupControlService,
  SchemaControlService,
  TreeDataService,
  IdentityService,
  NotificationService,
  RestoreDrillPlanService,
];
const ROLES = ['viewer', 'operator', 'admin'] as const;
const CANARY = 'canary-token-7f3a9c2e5b1d4e6f8a0b';
const protectedMethods = everyMethod(SERVICES).filter(([, m]) => m.name !== 'GetAuthScheme');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(DIALECTS)('sign-in seams with rbac (the shipped server) on %s', (dialect) => {
  let t: TestServer;
  const logs: string[] = [];
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    const logger = pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) });
    // This suite sends hundreds of bad credentials from one address on purpose: no sign-in limit
    // (test/audit/sign-in-limit.test.ts covers the limit).
    t = await startTestServer(
      dialect,
      { STORE_BOOTSTRAP_TOKEN: CANARY, STORE_SIGN_IN_FAILURE_LIMIT: '0' },
      undefined,
      logger,
    );
    for (const role of ROLES) {
      tokens[role] = (await t.server.tokens.issue({ tenant: 'default', roles: [role] })).token;
    }
    tokens.otherTenant = (await t.server.tokens.issue({ tenant: 'other', roles: ['admin'] })).token;
    tokens.expired = (
      await t.server.tokens.issue({ tenant: 'default', roles: ['admin'], ttlMs: 1 })
    ).token;
    const revoked = await t.server.tokens.issue({ tenant: 'default', roles: ['admin'] });
    await t.server.tokens.revoke(revoked.info.id);
    tokens.revoked = revoked.token;
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('GetAuthScheme answers with no credential on both services and advertises bearer', async () => {
    for (const service of [BackupControlService, SchemaControlService]) {
      const method = service.methods.find((m) => m.name === 'GetAuthScheme')!;
      expect(await callMethod(t.grpc, service, method, {})).toBe('ok');
    }
  });

  it.each(protectedMethods.map(([s, m]) => [`${s.name}/${m.name}`, s, m] as const))(
    '%s is refused for anonymous, malformed, expired, revoked and wrong-tenant callers',
    async (_, service, method) => {
      // rbac saying no is PermissionDenied, for the anonymous caller too; Unauthenticated is
      // kept for a credential that fails verification (the console's "session ended").
      const cases: Array<[string, Record<string, string>, Code]> = [
        ['anonymous', {}, Code.PermissionDenied],
        ['malformed', { authorization: 'Bearer not a token' }, Code.Unauthenticated],
        ['unknown', bearer('st_AAAAAAAAAAAA_' + 'x'.repeat(43)), Code.Unauthenticated],
        ['expired', bearer(tokens.expired!), Code.Unauthenticated],
        ['revoked', bearer(tokens.revoked!), Code.Unauthenticated],
        [
          'wrong tenant',
          { ...bearer(tokens.otherTenant!), 'store-active-tenant': 'default' },
          Code.PermissionDenied,
        ],
        ['canary as wrong scheme', { authorization: `Basic ${CANARY}x` }, Code.Unauthenticated],
      ];
      for (const [label, headers, expected] of cases) {
        expect(await callMethod(t.grpc, service, method, headers), label).toBe(expected);
      }
    },
  );

  it.each(protectedMethods.map(([s, m]) => [`${s.name}/${m.name}`, s, m] as const))(
    '%s follows the least-role table',
    async (_, service, method) => {
      const least = LEAST_ROLE_BY_METHOD[service.name]?.[method.name];
      expect(least, `${method.name} is in the DESIGN table`).toBeDefined();
      for (const role of ROLES) {
        const outcome = await callMethod(t.grpc, service, method, bearer(tokens[role]!));
        const allowed = least !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(least);
        if (allowed) {
          expect(
            [Code.PermissionDenied, Code.Unauthenticated],
            `${role} should pass auth`,
          ).not.toContain(outcome);
        } else {
          expect(outcome, `${role} lacks ${least}`).toBe(Code.PermissionDenied);
        }
      }
    },
  );

  it('the canary credential appears nowhere in the captured logs', async () => {
    // The canary signs in for real on every service, and fails in every way a credential can.
    for (const [service, method] of protectedMethods) {
      await callMethod(t.grpc, service, method, bearer(CANARY));
    }
    const whoAmI = IdentityService.method.whoAmI;
    expect(await callMethod(t.grpc, IdentityService, whoAmI, bearer(CANARY))).toBe('ok');
    for (const refused of [`${CANARY}x`, `x${CANARY}`, `${CANARY} ${CANARY}`]) {
      expect(await callMethod(t.grpc, IdentityService, whoAmI, bearer(refused))).toBe(
        Code.Unauthenticated,
      );
    }
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.some((line) => line.includes('credential refused'))).toBe(true);
    for (const line of logs) expect(line).not.toContain(CANARY);
  });
});

describe.each(DIALECTS)('sign-in seams with deny-all on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, {
      STORE_AUTHORIZER: 'deny-all',
      STORE_BOOTSTRAP_TOKEN: CANARY,
    });
  });
  afterAll(async () => t?.dispose());

  it('every protected call is PermissionDenied, anonymous, admin or with a credential that would fail; GetAuthScheme still answers', async () => {
    const callers: Array<[string, Record<string, string>]> = [
      ['anonymous', {}],
      ['admin', bearer(CANARY)],
      ['malformed', { authorization: 'Bearer not a token' }],
      ['unknown', bearer('st_AAAAAAAAAAAA_' + 'x'.repeat(43))],
      ['bad tenant header', { ...bearer(CANARY), 'store-active-tenant': '..' }],
    ];
    for (const [service, method] of protectedMethods) {
      for (const [label, headers] of callers) {
        expect(await callMethod(t.grpc, service, method, headers), `${method.name} ${label}`).toBe(
          Code.PermissionDenied,
        );
      }
    }
    const scheme = BackupControlService.methods.find((m) => m.name === 'GetAuthScheme')!;
    expect(await callMethod(t.grpc, BackupControlService, scheme, {})).toBe('ok');
  });
});

describe.each(DIALECTS)('sign-in seams with allow-all on %s', (dialect) => {
  let t: TestServer;
  let trusted: TestServer;
  let viewer: string;
  beforeAll(async () => {
    // One refused credential per RPC from one address: no sign-in limit here.
    t = await startTestServer(dialect, {
      STORE_AUTHORIZER: 'allow-all',
      STORE_SIGN_IN_FAILURE_LIMIT: '0',
    });
    viewer = (await t.server.tokens.issue({ tenant: 'default', roles: ['viewer'] })).token;
    trusted = await startTestServer(dialect, {
      STORE_AUTHORIZER: 'allow-all',
      STORE_TRUSTED_TENANT: 'lab',
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await trusted?.dispose();
  });

  it('a valid credential of any role passes every RPC; an anonymous one is refused by the gate', async () => {
    const unknown = bearer('st_AAAAAAAAAAAA_' + 'x'.repeat(43));
    for (const [service, method] of protectedMethods) {
      const outcome = await callMethod(t.grpc, service, method, bearer(viewer));
      expect([Code.PermissionDenied, Code.Unauthenticated], method.name).not.toContain(outcome);
      // The gate: no identity where the call needs one (no trusted tenant) asks for a sign-in.
      expect(await callMethod(t.grpc, service, method, {}), method.name).toBe(Code.Unauthenticated);
      expect(await callMethod(t.grpc, service, method, unknown), method.name).toBe(
        Code.Unauthenticated,
      );
    }
  });

  it('with STORE_TRUSTED_TENANT an anonymous caller passes and acts in that tenant', async () => {
    for (const [service, method] of protectedMethods) {
      const outcome = await callMethod(trusted.grpc, service, method, {});
      expect([Code.PermissionDenied, Code.Unauthenticated], method.name).not.toContain(outcome);
    }
  });
});

describe.each(DIALECTS)('RequireAuthorization false on %s', (dialect) => {
  let open: TestServer;
  let closed: TestServer;
  let viewer: string;
  beforeAll(async () => {
    open = await startTestServer(dialect, {
      STORE_REQUIRE_AUTHORIZATION: 'false',
      STORE_TRUSTED_TENANT: 'lab',
    });
    closed = await startTestServer(dialect, { STORE_REQUIRE_AUTHORIZATION: 'false' });
    viewer = (await closed.server.tokens.issue({ tenant: 'default', roles: ['viewer'] })).token;
  });
  afterAll(async () => {
    await open?.dispose();
    await closed?.dispose();
  });

  it('skips the authorizer: an anonymous caller acts in the trusted tenant, or the gate refuses it', async () => {
    const whoAmI = IdentityService.method.whoAmI;
    expect(await callMethod(open.grpc, IdentityService, whoAmI, {})).toBe('ok');
    const me = await createClient(IdentityService, open.grpc).whoAmI({});
    expect(me.activeTenant).toBe('lab');
    expect(me.schemeId).toBe('anonymous');
    // Without a trusted tenant the gate still refuses anonymous callers.
    expect(await callMethod(closed.grpc, IdentityService, whoAmI, {})).toBe(Code.Unauthenticated);
    const list = TreeDataService.method.listTrees;
    expect(await callMethod(closed.grpc, TreeDataService, list, {})).toBe(Code.Unauthenticated);
  });

  it('keeps the credential bridge: a valid credential names the caller and its tenant, a bad one is Unauthenticated', async () => {
    const me = await createClient(IdentityService, closed.grpc).whoAmI(
      {},
      { headers: bearer(viewer) },
    );
    expect(me).toMatchObject({ schemeId: 'bearer', activeTenant: 'default' });
    expect(me.subject).not.toBe('anonymous');
    // The authorizer is skipped: a viewer passes an admin-only RPC.
    const setPolicy = SchemaControlService.method.setPolicy;
    const outcome = await callMethod(closed.grpc, SchemaControlService, setPolicy, bearer(viewer));
    expect([Code.PermissionDenied, Code.Unauthenticated]).not.toContain(outcome);
    // A credential that fails verification is refused even where the trusted tenant would serve.
    const whoAmI = IdentityService.method.whoAmI;
    const malformed = { authorization: 'Bearer not a token' };
    expect(await callMethod(open.grpc, IdentityService, whoAmI, malformed)).toBe(
      Code.Unauthenticated,
    );
  });
});
