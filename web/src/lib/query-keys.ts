import type {
  DescMessage,
  DescMethodUnary,
  DescService,
  MessageInitShape,
} from '@bufbuild/protobuf';
import { createConnectQueryKey } from '@connectrpc/connect-query';
import type { QueryKey } from '@tanstack/react-query';

/**
 * The query key of one RPC and its input, from the method descriptor (STYLE.md: keys come from
 * the RPC method and its input). The typed clients reshape some answers (null for absent), so
 * the key is returned untagged and each hook types its own data.
 */
export function rpcKey<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  input?: MessageInitShape<I>,
): QueryKey {
  return createConnectQueryKey({ schema: method, input, cardinality: 'finite' }) as QueryKey;
}

/** A key prefix matching every query of one service: for invalidation after a change. */
export function serviceKey(service: DescService): QueryKey {
  return createConnectQueryKey({ schema: service, cardinality: undefined }) as QueryKey;
}

/**
 * A key prefix matching every query of one RPC, whatever its input and cardinality (a list read
 * one page at a time and one paged through with useInfiniteQuery): for invalidation.
 */
export function methodKey(method: DescMethodUnary): QueryKey {
  return createConnectQueryKey({ schema: method, cardinality: undefined }) as QueryKey;
}
