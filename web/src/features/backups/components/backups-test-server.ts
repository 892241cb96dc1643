import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter, type ServiceImpl } from '@connectrpc/connect';
import {
  BackupComparisonKind,
  BackupControlService,
  BackupDifferenceChange,
  BackupInsightService,
  BackupKind,
  BackupLifecycleService,
  BackupManifestSchema,
  IdentityService,
  SchemaControlService,
  StoreBackupApiOperation,
  StoreOperationKind,
  StoreOperationPageSchema,
  StoreOperationState,
  TreeDataService,
  type BackupCatalogRequest,
  type RestorePreviewRequest,
  type StoreOperationStatus,
  type BackupManifest,
  type backupV1,
} from '@store/contract';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, testSession } from '../../../testing/render-app';

/** A catalog manifest; a full backup of "orders" unless told otherwise. */
export function manifest(init: MessageInitShape<typeof BackupManifestSchema>): BackupManifest {
  return create(BackupManifestSchema, {
    kind: BackupKind.FULL,
    treeId: 'orders',
    createdAt: timestampFromMs(Date.UTC(2025, 0, 1)),
    ...init,
  } as MessageInitShape<typeof BackupManifestSchema>);
}

const ALL_OPS = Object.values(StoreBackupApiOperation).filter(
  (v): v is StoreBackupApiOperation => typeof v === 'number',
);

/**
 * The backup service as the real one answers (shapes from the contract), recording what the
 * console sent. `pages` maps a page token to the backups of that page.
 */
export function backupsServer(
  options: {
    pages?: Record<string, { backups: BackupManifest[]; next?: string }>;
    trees?: string[];
    allowed?: StoreBackupApiOperation[];
    described?: backupV1.BackupChainResponse | null;
    /** Other backups DescribeBackup knows, by id → name (chain links, dependants). */
    names?: Record<string, string>;
    /** Whether DeleteBackup refuses a non-cascade delete (dependants exist). */
    refuseDelete?: boolean;
    /**
     * BackupInsightService: whether its preview's tree has changed by now (asked per call), and
     * the state a preview reports (default SUCCEEDED).
     */
    insight?: { treeChanged: () => boolean; previewState?: () => StoreOperationState };
    /** The chunks ExportArtifact streams (none unless given). */
    exported?: Uint8Array[];
    /** BackupLifecycleService (protections); absent: Unimplemented, as an older server. */
    lifecycle?: Partial<ServiceImpl<typeof BackupLifecycleService>>;
    /** WhoAmI's roles in tenant acme (default admin). */
    roles?: string[];
    /** What GetBackupOperationStatus says of the health check StartBackupHealthCheck starts. */
    healthCheck?: StoreOperationStatus;
  } = {},
) {
  const calls = {
    list: [] as BackupCatalogRequest[],
    startBackup: [] as backupV1.BackupCaptureRequestMessage[],
    startIncremental: [] as backupV1.BackupIncrementalCaptureRequestMessage[],
    startRestore: [] as backupV1.RestoreRequestMessage[],
    deletes: [] as backupV1.BackupDeleteRequest[],
    previews: [] as RestorePreviewRequest[],
    healthChecks: [] as backupV1.BackupHealthCheckRequestMessage[],
    describes: 0,
  };
  const pages = options.pages ?? {};
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: options.roles ?? ['admin'] }] }),
    });
    router.service(TreeDataService, {
      listTrees: () => ({
        trees: (options.trees ?? ['orders', 'users']).map((treeId) => ({ treeId })),
      }),
    });
    router.service(BackupControlService, {
      listBackups: (request) => {
        calls.list.push(request);
        const page = pages[request.pageToken] ?? { backups: [] };
        const backups = request.treeId
          ? page.backups.filter((b) => b.treeId === request.treeId)
          : page.backups;
        return { backups, nextPageToken: page.next ?? '' };
      },
      probeCapabilities: (request) => ({
        treeId: request.scope?.treeId ?? '',
        allowedOperations: options.allowed ?? ALL_OPS,
      }),
      describeBackup: ({ backupId }) => {
        calls.describes += 1;
        const known = options.names?.[backupId];
        if (known !== undefined) {
          return { found: true, manifest: manifest({ backupId, name: known }) };
        }
        const described = options.described;
        if (!described) return { found: false };
        const describedId = described.manifest?.backupId;
        return describedId === undefined || describedId === backupId ? described : { found: false };
      },
      startBackup: (request) => {
        calls.startBackup.push(request);
        return { operationId: 'op-full', kind: StoreOperationKind.BACKUP };
      },
      startIncrementalBackup: (request) => {
        calls.startIncremental.push(request);
        return { operationId: 'op-inc', kind: StoreOperationKind.INCREMENTAL_BACKUP };
      },
      startRestore: (request) => {
        calls.startRestore.push(request);
        return { operationId: 'op-restore', kind: StoreOperationKind.RESTORE };
      },
      deleteBackup: (request) => {
        calls.deletes.push(request);
        if (options.refuseDelete && !request.cascade) {
          throw new ConnectError(
            'backup “nightly” cannot be deleted alone: a newer incremental backup depends on it ' +
              '(“inc”); delete that first, or delete it with them (cascade)',
            Code.FailedPrecondition,
          );
        }
        return { deleted: true, deletedBackupIds: [request.backupId] };
      },
      async *exportArtifact() {
        for (const data of options.exported ?? []) yield { data };
      },
      startBackupHealthCheck: (request) => {
        calls.healthChecks.push(request);
        return { operationId: 'op-health', kind: StoreOperationKind.BACKUP_HEALTH_CHECK };
      },
      getBackupOperationStatus: ({ operationId }) =>
        operationId === 'op-health' && options.healthCheck ? { status: options.healthCheck } : {},
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
    });
    router.service(SchemaControlService, {
      getSchemaOperationStatus: () => ({}),
      listSchemaOperations: () => create(StoreOperationPageSchema, {}),
    });
    const insight = options.insight;
    if (insight) router.service(BackupInsightService, previewService(insight, calls.previews));
    if (options.lifecycle) router.service(BackupLifecycleService, options.lifecycle);
  };
  return { calls, app: createTestApp(routes, { session: testSession }) };
}

/** A BackupInsightService whose previews (once succeeded) read tree sequence 7, two differences. */
function previewService(
  insight: { treeChanged: () => boolean; previewState?: () => StoreOperationState },
  previews: RestorePreviewRequest[],
): Partial<ServiceImpl<typeof BackupInsightService>> {
  return {
    startRestorePreview: (request) => {
      previews.push(request);
      return {
        operationId: `op-preview-${previews.length}`,
        kind: StoreOperationKind.RESTORE_PREVIEW,
      };
    },
    getBackupInsightOperationStatus: (request) => ({
      status: {
        operationId: request.operationId,
        kind: StoreOperationKind.RESTORE_PREVIEW,
        state: insight.previewState?.() ?? StoreOperationState.SUCCEEDED,
      },
    }),
    getBackupComparison: (request) => {
      const changed = insight.treeChanged();
      return {
        report: {
          operationId: request.operationId,
          kind: BackupComparisonKind.RESTORE_PREVIEW,
          treeId: 'orders',
          counts: { added: 1n, changed: 1n, removed: 0n, unchanged: 5n },
          treeSequence: 7n,
        },
        treeChanged: changed,
        currentTreeSequence: changed ? 9n : 7n,
      };
    },
    listBackupDifferences: (request) => ({
      differences: [
        {
          key: 'a',
          change: BackupDifferenceChange.CHANGED,
          beforeJson: '{"v":2}',
          afterJson: '{"v":1}',
        },
        { key: 'b', change: BackupDifferenceChange.ADDED, afterJson: '"new"' },
      ].filter((d) => request.changes.length === 0 || request.changes.includes(d.change)),
    }),
  };
}
