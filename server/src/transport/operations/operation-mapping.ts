import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  StoreOperationHandleSchema,
  StoreOperationKind,
  StoreOperationState,
  StoreOperationStatusSchema,
  type StoreOperationHandle,
  type StoreOperationListRequest,
  type StoreOperationStatus,
} from '@store/contract';
import type { RestoreRequest } from '../../engines/backup/backup-types.js';
import { invalidArgument } from '../../engines/errors.js';

/** What the binding needs of an engine operation record. */
export interface OperationView {
  id: string;
  kind: string;
  state: string;
  targetId: string | null;
  progress: { done: number; total: number; unit: string; message: string };
  createdAt: number;
  startedAt: number | null;
  updatedAt: number;
  finishedAt: number | null;
  cancelRequested: boolean;
  error?: { code: string; message: string } | undefined;
  createdBy: string;
  /** Who asked to cancel it, once anyone has. */
  cancelledBy?: string | undefined;
  result?: unknown;
  /** The submitted request's JSON, where the record carries it. */
  requestJson?: string | undefined;
}

/** Turns an engine result (JSON) of one kind into the status's result oneof. */
export type ResultMapper = (result: unknown) => StoreOperationStatus['result'];

const RESTORE_KINDS: ReadonlySet<string> = new Set(['RESTORE', 'COLD_RESTORE']);

/**
 * The tree a restore writes, when its request named one: its status's target_id is the backup,
 * and its result (with the tree) only comes when it succeeded.
 */
function restoreTargetTree(operation: OperationView): string | undefined {
  if (!RESTORE_KINDS.has(operation.kind) || !operation.requestJson) return undefined;
  const named = (JSON.parse(operation.requestJson) as Partial<RestoreRequest>).targetTreeId;
  return typeof named === 'string' && named !== '' ? named : undefined;
}

/** The proto enum value of an engine kind (engine kinds are the enum's names). */
export function kindToProto(kind: string): StoreOperationKind {
  return (
    StoreOperationKind[kind as keyof typeof StoreOperationKind] ?? StoreOperationKind.UNSPECIFIED
  );
}

function stateToProto(state: string): StoreOperationState {
  return (
    StoreOperationState[state as keyof typeof StoreOperationState] ??
    StoreOperationState.UNSPECIFIED
  );
}

/** The handle a start RPC returns. */
export function toHandle(operation: OperationView): StoreOperationHandle {
  return create(StoreOperationHandleSchema, {
    operationId: operation.id,
    kind: kindToProto(operation.kind),
    acceptedAt: timestampFromMs(operation.createdAt),
  });
}

/**
 * The status fields every family's status message shares (all but kind and result): the store
 * status and the schema-insight status number them alike, so one mapping serves both.
 */
export function sharedStatusFields(operation: OperationView) {
  return {
    operationId: operation.id,
    state: stateToProto(operation.state),
    targetId: operation.targetId ?? undefined,
    progress: {
      done: BigInt(operation.progress.done),
      total: BigInt(operation.progress.total),
      unit: operation.progress.unit,
      message: operation.progress.message,
    },
    createdAt: timestampFromMs(operation.createdAt),
    startedAt: operation.startedAt === null ? undefined : timestampFromMs(operation.startedAt),
    updatedAt: timestampFromMs(operation.updatedAt),
    finishedAt: operation.finishedAt === null ? undefined : timestampFromMs(operation.finishedAt),
    cancelRequested: operation.cancelRequested,
    error: operation.error,
    createdBy: operation.createdBy,
  };
}

/** The full status record, with the result mapped by its kind's mapper. */
export function toOperationStatus(
  operation: OperationView,
  resultMappers: Readonly<Record<string, ResultMapper>>,
): StoreOperationStatus {
  const mapper = resultMappers[operation.kind];
  return create(StoreOperationStatusSchema, {
    ...sharedStatusFields(operation),
    kind: kindToProto(operation.kind),
    cancelledBy: operation.cancelledBy,
    targetTreeId: restoreTargetTree(operation),
    result: operation.result !== undefined && mapper ? mapper(operation.result) : undefined,
  });
}

/**
 * A list request's kinds and states as the engine names them; an empty kind list means the whole
 * family. InvalidArgument names the first value outside the family or the state enum.
 */
export function kindAndStateNames(
  request: { kinds: readonly number[]; states: readonly number[] },
  kindEnum: Record<number, string>,
  family: readonly string[],
  familyName: string,
): { kinds: string[]; states: string[] } {
  const kinds = request.kinds.map((kind, index) => {
    const name = kindEnum[kind];
    if (name === undefined || !family.includes(name)) {
      throw invalidArgument(`kinds[${index}]`, `${kind} is not ${familyName}`);
    }
    return name;
  });
  const states = request.states.map((state, index) => {
    const name = StoreOperationState[state];
    if (name === undefined || state === StoreOperationState.UNSPECIFIED) {
      throw invalidArgument(`states[${index}]`, `${state} is not an operation state`);
    }
    return name;
  });
  return { kinds: kinds.length > 0 ? kinds : [...family], states };
}

/** The engine's list filter from the wire request, limited to one family of kinds. */
export function toListFilter(request: StoreOperationListRequest, family: readonly string[]) {
  return {
    pageSize: request.pageSize,
    pageToken: request.pageToken,
    ...kindAndStateNames(request, StoreOperationKind, family, 'an operation kind of this service'),
    targetId: request.targetId,
    createdAfter: request.createdAfter ? timestampDate(request.createdAfter).getTime() : undefined,
  };
}
