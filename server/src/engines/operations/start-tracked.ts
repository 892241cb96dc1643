import type { OperationRunner } from './operation-runner.js';
import type { OperationRecord } from './types.js';

/** Who starts a tracked operation: in which tenant, as whom, under which tracking id. */
export interface Starter {
  tenant: string;
  createdBy: string;
  /** The caller's idempotency key (a Start RPC's tracking or operation id), when it sent one. */
  trackingId?: string | undefined;
  /** Started by the server itself (SubmitRequest.uncapped): never refused by a tenant's cap. */
  uncapped?: boolean | undefined;
}

/** What an engine starts: the kind, its stored request and the resource it is about. */
export interface TrackedStart {
  kind: string;
  /** JSON-serialisable; stored and handed to the handler. */
  request: unknown;
  targetId: string | null;
  /** See SubmitRequest.callerRequest: what a retry must match when `request` holds a "now". */
  callerRequest?: unknown;
}

/**
 * The one way an engine starts a tracked operation (AIP-155). A tracking id already used answers
 * first: the same request gets its operation back whatever happened since (it ran, failed, is
 * running, or the world its checks look at moved on), another request is AlreadyExists. Only a
 * new operation meets `preconditions` (a preview's fingerprint, "tree not empty", room to store
 * differences...), then the submit, whose unique index settles two new starts racing for an id.
 */
export async function startTracked(
  runner: OperationRunner,
  who: Starter,
  start: TrackedStart,
  preconditions?: () => Promise<void> | void,
): Promise<OperationRecord> {
  const submit = {
    tenant: who.tenant,
    kind: start.kind,
    request: start.request,
    targetId: start.targetId,
    trackingId: who.trackingId,
    createdBy: who.createdBy,
    uncapped: who.uncapped,
    ...(start.callerRequest !== undefined && { callerRequest: start.callerRequest }),
  };
  const earlier = await runner.findTracked(submit);
  if (earlier) return earlier;
  await preconditions?.();
  return runner.submit(submit);
}
