import { createClient, type Client } from '@connectrpc/connect';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useMemo } from 'react';
import { useApi } from '../services';

export type SchemaInsightClient = Client<typeof SchemaInsightService>;

/**
 * SchemaInsightService (issue 16: policy dry-runs, dead-letter replay) on the API layer's
 * transport, so it carries the same credential and active-tenant headers as every other call.
 */
export function useSchemaInsightClient(): SchemaInsightClient {
  const { transport } = useApi();
  return useMemo(() => createClient(SchemaInsightService, transport), [transport]);
}
