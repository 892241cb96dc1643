/**
 * The mechanism of per-method access: how a method is presented to the authorizer and the audit
 * trail. Each service's own table lives in its folder (backup/backup-access.ts, …).
 */
/** How one method is presented to the authorizer: its operation and where its target id is. */
export interface MethodAccess {
  operation: number;
  targetId(request: unknown): string | null;
  /**
   * The call changes state (creates, starts, cancels, deletes, restores, reverts, schedules,
   * configures, writes): the audit trail records every one of these, whatever its outcome.
   */
  changesState?: true;
  /**
   * The call starts a preview, comparison or dry-run: it takes a token from the caller's
   * preview-start rate limit (preview-start-limit.ts; docs/security.md, "Operation caps and
   * rate limits").
   */
  startsPreview?: true;
}

type Req = Record<string, unknown>;
export const none = (): null => null;
// A server-streaming call whose body held no message reaches here with no request at all.
export const field = (name: string) => (request: unknown) => {
  const value = (request as Req | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};
export const scopeTree = (request: unknown) => {
  const scope = (request as Req | undefined)?.scope as Req | undefined;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};

export const backupId = field('backupId');
export const treeId = field('treeId');

/** A service family the interceptor guards, selected by service-name prefix. */
export interface GuardedService {
  prefix: string;
  methods: Readonly<Record<string, MethodAccess>>;
  /** What an unrecognised method is presented as (spec 001, rule 2). */
  unknownOperation: number;
  /** Methods that never reach the bridge or the authorizer. */
  exempt: readonly string[];
  /** Calls that act in no tenant may come without one (WhoAmI of a multi-tenant caller). */
  tenantOptional?: boolean;
}

/** How a method of a guarded service is presented; unrecognised ones as the family's Unknown. */
export function accessOf(service: GuardedService, method: string): MethodAccess {
  return service.methods[method] ?? { operation: service.unknownOperation, targetId: none };
}
