import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import {
  BackupControlService,
  BackupInsightService,
  BackupLifecycleService,
  DrillProofService,
  SchemaControlService,
  StoreOperationState,
  type StoreOperationKind,
  type StoreOperationListRequestSchema,
  type StoreOperationPage,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDrillProofClient } from '../api/drill-client';
import { useLifecycleClient } from '../api/lifecycle-client';
import { useSchemaInsightClient } from '../api/schema-insight-client';
import { listPollInterval } from '../polling';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';
import { familyOf, type OperationFamily } from './operation-kinds';
import {
  fromSchemaInsightStatus,
  schemaInsightListRequest,
  unlessUnimplemented,
  type ConsoleOperation,
} from './schema-insight-operations';

export type OperationListRequest = MessageInitShape<typeof StoreOperationListRequestSchema>;

/** One family's page, every row as the console lists it. */
export interface ConsoleOperationPage {
  operations: ConsoleOperation[];
  nextPageToken: string;
}

/**
 * Queued and running operations, one page per service: the tray's request. The dashboard sends
 * it to the letter, so both share one cache entry and the dashboard costs no request of its own.
 */
export const ACTIVE_OPERATIONS_REQUEST = {
  states: [StoreOperationState.QUEUED, StoreOperationState.RUNNING],
  pageSize: 50,
};

export interface OperationListsOptions {
  /** Which services to ask (all of them by default); a skipped one stays pending and idle. */
  families?: Partial<Record<OperationFamily, boolean>>;
  /** Keep the previous page on screen while a changed request loads (e.g. "load more"). */
  keepPreviousPage?: boolean;
}

/**
 * The request one family gets: only its own kinds (a service refuses another's); null when the
 * request names kinds and none is this family's, so that service has nothing to list.
 */
export function familyRequest(
  request: OperationListRequest,
  family: OperationFamily,
): OperationListRequest | null {
  const kinds = (request.kinds ?? []) as StoreOperationKind[];
  if (kinds.length === 0) return request;
  const own = kinds.filter((kind) => familyOf(kind) === family);
  return own.length === 0 ? null : { ...request, kinds: own };
}

/**
 * One operations list request sent to every service that tracks operations: the backup and
 * schema services, the insight services (previews, diffs, dry-runs, replays, verify stale
 * backups), the lifecycle service (retention applies) and DrillProofService (restore drills). Each polls FAST while it shows a queued or running operation and SLOW otherwise,
 * and not while the tab is hidden (STYLE.md, polling): one list request per service per tick.
 */
export function useOperationLists(
  request: OperationListRequest,
  { families, keepPreviousPage = false }: OperationListsOptions = {},
) {
  const api = useApi();
  const schemaInsightClient = useSchemaInsightClient();
  const lifecycleClient = useLifecycleClient();
  const drillProofClient = useDrillProofClient();
  const polling = {
    refetchInterval: (query: { state: { data: { operations: ConsoleOperation[] } | undefined } }) =>
      listPollInterval(query.state.data?.operations),
    refetchIntervalInBackground: false,
    ...(keepPreviousPage && { placeholderData: keepPreviousData }),
  } as const;
  const requests = {
    backup: familyRequest(request, 'backup'),
    schema: familyRequest(request, 'schema'),
    backupInsight: familyRequest(request, 'backupInsight'),
    schemaInsight: familyRequest(request, 'schemaInsight'),
    lifecycle: familyRequest(request, 'lifecycle'),
    drill: familyRequest(request, 'drill'),
  };
  const enabled = (family: OperationFamily) =>
    (families?.[family] ?? true) && requests[family] !== null;
  const createdAfterMs = request.createdAfter
    ? Number(request.createdAfter.seconds ?? 0n) * 1000 + (request.createdAfter.nanos ?? 0) / 1e6
    : undefined;

  const backup = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, requests.backup ?? request),
    queryFn: ({ signal }): Promise<StoreOperationPage> =>
      api.backup.listBackupOperations(requests.backup ?? request, { signal }),
    enabled: enabled('backup'),
    ...polling,
  });
  const schema = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, requests.schema ?? request),
    queryFn: ({ signal }): Promise<StoreOperationPage> =>
      api.schema.listSchemaOperations(requests.schema ?? request, { signal }),
    enabled: enabled('schema'),
    ...polling,
  });
  const backupInsightRequest = requests.backupInsight ?? request;
  const backupInsight = useQuery({
    queryKey: rpcKey(BackupInsightService.method.listBackupInsightOperations, backupInsightRequest),
    queryFn: ({ signal }): Promise<ConsoleOperationPage> =>
      unlessUnimplemented(
        api.backupInsight.listBackupInsightOperations(backupInsightRequest, { signal }),
        { operations: [], nextPageToken: '' },
      ),
    enabled: enabled('backupInsight'),
    ...polling,
  });
  const schemaInsightRequest = schemaInsightListRequest(requests.schemaInsight ?? request);
  const schemaInsight = useQuery({
    queryKey: [
      ...rpcKey(SchemaInsightService.method.listSchemaInsightOperations, schemaInsightRequest),
      createdAfterMs ?? null,
    ],
    queryFn: async ({ signal }): Promise<ConsoleOperationPage> => {
      const page = await unlessUnimplemented(
        schemaInsightClient.listSchemaInsightOperations(schemaInsightRequest, { signal }),
        { operations: [], nextPageToken: '' },
      );
      // This list has no created_after: the window is applied here.
      const operations = page.operations
        .map(fromSchemaInsightStatus)
        .filter(
          (op) =>
            createdAfterMs === undefined ||
            (op.createdAt ? timestampMs(op.createdAt) : 0) > createdAfterMs,
        );
      return { operations, nextPageToken: page.nextPageToken };
    },
    enabled: enabled('schemaInsight'),
    ...polling,
  });
  const lifecycleRequest = requests.lifecycle ?? request;
  const lifecycle = useQuery({
    queryKey: rpcKey(BackupLifecycleService.method.listLifecycleOperations, lifecycleRequest),
    queryFn: async ({ signal }): Promise<ConsoleOperationPage> => {
      const page = await unlessUnimplemented(
        lifecycleClient.listLifecycleOperations(lifecycleRequest, { signal }),
        null,
      );
      return page ?? { operations: [], nextPageToken: '' };
    },
    enabled: enabled('lifecycle'),
    ...polling,
  });
  const drillRequest = requests.drill ?? request;
  const drill = useQuery({
    queryKey: rpcKey(DrillProofService.method.listRestoreDrillOperations, drillRequest),
    queryFn: async ({ signal }): Promise<ConsoleOperationPage> => {
      const page = await unlessUnimplemented(
        drillProofClient.listRestoreDrillOperations(drillRequest, { signal }),
        null,
      );
      return page ?? { operations: [], nextPageToken: '' };
    },
    enabled: enabled('drill'),
    ...polling,
  });
  return { backup, schema, backupInsight, schemaInsight, lifecycle, drill };
}

/** Every service's list as an array, for merging and for "any pending, first error". */
export function allOperationLists(lists: ReturnType<typeof useOperationLists>) {
  return [
    lists.backup,
    lists.schema,
    lists.backupInsight,
    lists.schemaInsight,
    lists.lifecycle,
    lists.drill,
  ] as const;
}
