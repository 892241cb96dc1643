import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  StoreOperationKind,
  StoreOperationState,
  StoreOperationStatusSchema,
  WhoAmIResponseSchema,
  type StoreOperationStatus,
  type WhoAmIResponse,
} from '@store/contract';

let sequence = 0;

/** A tracked operation's status; a RUNNING backup unless told otherwise, each newer than the last. */
export function operation(
  init: MessageInitShape<typeof StoreOperationStatusSchema> = {},
): StoreOperationStatus {
  sequence++;
  const defaults = {
    operationId: `op-${sequence}`,
    kind: StoreOperationKind.BACKUP,
    state: StoreOperationState.RUNNING,
    targetId: 'orders',
    createdAt: timestampFromMs(Date.UTC(2025, 0, 1) + sequence * 1000),
    createdBy: 'alice',
    progress: { done: 10n, total: 100n, unit: 'entries', message: 'copying' },
  };
  // The init shape is a union (message or plain init); merged field by field it is an init.
  return create(StoreOperationStatusSchema, {
    ...defaults,
    ...init,
  } as MessageInitShape<typeof StoreOperationStatusSchema>);
}

/** WhoAmI of an admin of tenant "acme" signed in with an API token. */
export function whoAmI(init: MessageInitShape<typeof WhoAmIResponseSchema> = {}): WhoAmIResponse {
  return create(WhoAmIResponseSchema, {
    subject: 'token:t-1',
    displayName: 'Alice Admin',
    schemeId: 'bearer',
    tenants: [{ tenantId: 'acme', roles: ['admin'] }],
    activeTenant: 'acme',
    ...init,
  });
}

/** An AuthSchemeDescriptor as either service sends it. */
export interface SchemeFixture {
  schemeId: string;
  displayName: string;
  parameters: Record<string, string>;
}

/** The bearer scheme the shipped server advertises (DESIGN.md §4). */
export const bearerScheme: SchemeFixture = {
  schemeId: 'bearer',
  displayName: 'API token',
  parameters: { header: 'authorization', prefix: 'Bearer' },
};

export const oidcScheme: SchemeFixture = {
  schemeId: 'oidc',
  displayName: 'Single sign-on',
  parameters: { issuer: 'https://id.example.com', client_id: 'console', scope: 'openid profile' },
};
