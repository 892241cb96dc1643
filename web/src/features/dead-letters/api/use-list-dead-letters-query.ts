import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  SchemaInsightService,
  type DeadLetterFilterSchema,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { rpcKey } from '../../../lib/query-keys';

/** One page of the tree's dead letters with ids and replay history. */
export function useListDeadLettersQuery(
  treeId: string,
  request: {
    pageToken: string;
    includeReplayed: boolean;
    filter: MessageInitShape<typeof DeadLetterFilterSchema>;
  },
) {
  const client = useSchemaInsightClient();
  const input = {
    treeId,
    pageSize: 20,
    pageToken: request.pageToken,
    includeReplayed: request.includeReplayed,
    filter: request.filter,
  };
  return useQuery({
    queryKey: rpcKey(SchemaInsightService.method.listDeadLetters, input),
    queryFn: ({ signal }) => client.listDeadLetters(input, { signal }),
    placeholderData: keepPreviousData,
  });
}
