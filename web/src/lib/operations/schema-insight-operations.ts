import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  StoreOperationKind,
  StoreOperationStatusSchema,
  type StoreOperationListRequestSchema,
  type StoreOperationStatus,
} from '@store/contract';
import {
  SchemaInsightOperationKind,
  type SchemaInsightOperationListRequestSchema,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';

/**
 * A tracked operation as the console lists it. Schema-insight operations (dry-runs, replays,
 * migration previews) come from their own service with their own kind enum and result; the
 * console shows them beside the others as StoreOperationStatus, their report kept alongside.
 */
export type ConsoleOperation = StoreOperationStatus & {
  schemaInsightResult?: SchemaInsightOperationStatus['result'];
};

const TO_STORE_KIND: Record<SchemaInsightOperationKind, StoreOperationKind> = {
  [SchemaInsightOperationKind.UNSPECIFIED]: StoreOperationKind.UNSPECIFIED,
  [SchemaInsightOperationKind.POLICY_DRY_RUN]: StoreOperationKind.POLICY_DRY_RUN,
  [SchemaInsightOperationKind.DEAD_LETTER_REPLAY]: StoreOperationKind.DEAD_LETTER_REPLAY,
  [SchemaInsightOperationKind.MIGRATION_PREVIEW]: StoreOperationKind.MIGRATION_PREVIEW,
};

export function fromSchemaInsightStatus(status: SchemaInsightOperationStatus): ConsoleOperation {
  const { $typeName: _ignored, kind, result, ...fields } = status;
  return {
    ...create(StoreOperationStatusSchema, { ...fields, kind: TO_STORE_KIND[kind] }),
    schemaInsightResult: result,
  };
}

/**
 * The insight services are this console's own, not the specs': a server that offers only the
 * spec services answers Unimplemented, which reads as "no such operations" rather than an error.
 */
export async function unlessUnimplemented<T, A>(call: Promise<T>, absent: A): Promise<T | A> {
  try {
    return await call;
  } catch (error) {
    if (ConnectError.from(error).code === Code.Unimplemented) return absent;
    throw error;
  }
}

/**
 * The schema-insight form of a list request. Its kinds are the schema-insight ones among the
 * request's; it has no created_after, so the caller drops older rows itself.
 */
export function schemaInsightListRequest(
  request: MessageInitShape<typeof StoreOperationListRequestSchema>,
): MessageInitShape<typeof SchemaInsightOperationListRequestSchema> {
  const kinds = (request.kinds ?? []).flatMap((kind) => {
    const entry = Object.entries(TO_STORE_KIND).find(([, storeKind]) => storeKind === kind);
    return entry && kind !== StoreOperationKind.UNSPECIFIED
      ? [Number(entry[0]) as SchemaInsightOperationKind]
      : [];
  });
  return {
    pageSize: request.pageSize,
    pageToken: request.pageToken,
    states: request.states,
    kinds,
    ...(request.targetId !== undefined && { targetId: request.targetId }),
  };
}
