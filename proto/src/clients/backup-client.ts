import type { MessageInitShape } from '@bufbuild/protobuf';
import { createClient, type CallOptions, type Transport } from '@connectrpc/connect';
import type {
  BackupCatalogPage,
  BackupCatalogRequestSchema,
  BackupHealthReport,
  BackupManifest,
  BackupScopeCapabilities,
  BackupScopeSelectorSchema,
} from '../../gen/store/api/v1/backup_records_pb.js';
import type {
  StoreOperationHandle,
  StoreOperationListRequestSchema,
  StoreOperationPage,
  StoreOperationStatus,
} from '../../gen/store/api/v1/operations_pb.js';
import type {
  AuthSchemeAdvertisement,
  AuthSchemeAdvertisementRequestSchema,
  BackupCaptureRequestMessageSchema,
  BackupCaptureResponse,
  BackupChainResponse,
  BackupIncrementalCaptureRequestMessageSchema,
  BackupScopeStatusResponse,
  BackupSetCaptureRequestMessageSchema,
  BackupSetCaptureResponse,
  RestoreRequestMessageSchema,
  RestoreResponse,
  RestoreResponseSchema,
} from '../../gen/store/backup/v1/backup_messages_pb.js';
import { BackupControlService } from '../../gen/store/backup/v1/backup_service_pb.js';
import { durationFromMs, durationToMs } from '../durations.js';
import { refuseNull, requireId, requirePositiveMs, requirePresent } from '../arguments.js';

type ScopeInit = MessageInitShape<typeof BackupScopeSelectorSchema>;
type CaptureInit = MessageInitShape<typeof BackupCaptureRequestMessageSchema>;
type IncrementalInit = MessageInitShape<typeof BackupIncrementalCaptureRequestMessageSchema>;
type SetCaptureInit = MessageInitShape<typeof BackupSetCaptureRequestMessageSchema>;
type RestoreInit = MessageInitShape<typeof RestoreRequestMessageSchema>;
type CatalogInit = MessageInitShape<typeof BackupCatalogRequestSchema>;
type OperationListInit = MessageInitShape<typeof StoreOperationListRequestSchema>;
type AuthSchemeInit = MessageInitShape<typeof AuthSchemeAdvertisementRequestSchema>;
type RestoreResultInit = MessageInitShape<typeof RestoreResponseSchema>;

/** Health monitoring settings of one backup (the spec's BackupHealthConfig, in milliseconds). */
export interface HealthMonitoringConfig {
  monitoringEnabled: boolean;
  /** Cadence of the periodic check; must be positive while monitoring is enabled. */
  intervalMs: number;
}

/**
 * Creates the typed backup client (spec 000, Endpoints). It checks arguments before sending and
 * adds no transport policy of its own: retries, deadlines and headers are the transport's.
 */
export function createBackupClient(transport: Transport) {
  requirePresent(transport, 'transport');
  const rpc = createClient(BackupControlService, transport);

  return {
    /** Starts a tracked full backup; operationId is sent as the tracking id. */
    startBackup(
      request: CaptureInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      const body = requirePresent(request, 'request');
      return rpc.startBackup(withTracking(body, operationId), options);
    },

    /** Starts a tracked incremental backup on top of request.baseBackupId. */
    startIncrementalBackup(
      request: IncrementalInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      const body = requirePresent(request, 'request');
      return rpc.startIncrementalBackup(withTracking(body, operationId), options);
    },

    /** Starts a tracked capture of two or more trees as one set. */
    startBackupSet(
      request: SetCaptureInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      const body = requirePresent(request, 'request');
      return rpc.startBackupSet(withTracking(body, operationId), options);
    },

    /** Starts a tracked restore of request.backupId. */
    startRestore(
      request: RestoreInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      const body = requirePresent(request, 'request');
      return rpc.startRestore(withTracking(body, operationId), options);
    },

    /** Starts a tracked cold restore, which reads the chain from the artifact store. */
    startColdRestore(
      request: RestoreInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      const body = requirePresent(request, 'request');
      return rpc.startColdRestore(withTracking(body, operationId), options);
    },

    /** Starts a tracked verification of one backup. */
    startBackupHealthCheck(
      backupId: string,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      requireId(backupId, 'backupId');
      return rpc.startBackupHealthCheck({ backupId, trackingOperationId: operationId }, options);
    },

    /** Starts a tracked rebuild of the catalog from the manifests in the artifact store. */
    startCatalogRebuild(
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      return rpc.startCatalogRebuild({ trackingOperationId: operationId }, options);
    },

    /** Starts a tracked scrub; with pruneOrphans it deletes artifacts no catalog row owns. */
    startCatalogScrub(
      pruneOrphans = false,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      return rpc.startCatalogScrub({ pruneOrphans, trackingOperationId: operationId }, options);
    },

    /** The operation's status, or null when it is unknown or not visible to the caller. */
    async getBackupOperationStatus(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      const response = await rpc.getBackupOperationStatus({ operationId }, options);
      return response.status ?? null;
    },

    /** A page of the caller's backup operations. */
    listBackupOperations(
      request: OperationListInit = {},
      options?: CallOptions,
    ): Promise<StoreOperationPage> {
      return rpc.listBackupOperations(refuseNull(request, 'request', {}), options);
    },

    /** Requests cancellation; returns the status, or null when unknown or not visible. */
    async cancelBackupOperation(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      const response = await rpc.cancelBackupOperation({ operationId }, options);
      return response.status ?? null;
    },

    /** @deprecated STORE0002: use startBackup, which returns at once and can be polled. */
    createBackup(request: CaptureInit, options?: CallOptions): Promise<BackupCaptureResponse> {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC itself
      return rpc.createBackup(requirePresent(request, 'request'), options);
    },

    /** @deprecated STORE0002: use startIncrementalBackup. */
    createIncrementalBackup(
      request: IncrementalInit,
      options?: CallOptions,
    ): Promise<BackupCaptureResponse> {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC itself
      return rpc.createIncrementalBackup(requirePresent(request, 'request'), options);
    },

    /** @deprecated STORE0002: use startBackupSet. */
    createBackupSet(
      request: SetCaptureInit,
      options?: CallOptions,
    ): Promise<BackupSetCaptureResponse> {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC itself
      return rpc.createBackupSet(requirePresent(request, 'request'), options);
    },

    /** A page of the caller's catalog (keyset paging). */
    listBackups(request: CatalogInit = {}, options?: CallOptions): Promise<BackupCatalogPage> {
      if (request === null) throw new TypeError('request must not be null');
      return rpc.listBackups(request, options);
    },

    /** Every manifest of the caller's catalog, as an async sequence. */
    streamBackups(options?: CallOptions): AsyncIterable<BackupManifest> {
      return rpc.streamBackups({}, options);
    },

    /** The backup's manifest and chain, or null when it does not exist. */
    async describeBackup(
      backupId: string,
      options?: CallOptions,
    ): Promise<BackupChainResponse | null> {
      requireId(backupId, 'backupId');
      const response = await rpc.describeBackup({ backupId }, options);
      return response.found ? response : null;
    },

    /** Deletes a backup; false when it did not exist. cascade also deletes its dependants. */
    async deleteBackup(
      backupId: string,
      settings: { cascade?: boolean } = {},
      options?: CallOptions,
    ): Promise<boolean> {
      requireId(backupId, 'backupId');
      const response = await rpc.deleteBackup(
        { backupId, cascade: settings.cascade ?? false },
        options,
      );
      return response.deleted;
    },

    /** @deprecated STORE0002: use startRestore. */
    restoreBackup(request: RestoreInit, options?: CallOptions): Promise<RestoreResponse> {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC itself
      return rpc.restoreBackup(requirePresent(request, 'request'), options);
    },

    /** Swaps an in-place restore back; the server trusts only the result's operation id. */
    async revertRestore(restore: RestoreResultInit, options?: CallOptions): Promise<void> {
      await rpc.revertRestore(requirePresent(restore, 'restore'), options);
    },

    /**
     * The stored bytes of one artifact, as an async sequence of chunks. A transport may reuse a
     * chunk's memory for the next one (the console's does): copy what is kept past the next step.
     */
    exportArtifact(
      backupId: string,
      artifactId: string,
      options?: CallOptions,
    ): AsyncIterable<Uint8Array> {
      requireId(backupId, 'backupId');
      requireId(artifactId, 'artifactId');
      const chunks = rpc.exportArtifact({ backupId, artifactId }, options);
      return (async function* () {
        for await (const chunk of chunks) yield chunk.data;
      })();
    },

    /** The advertised authentication schemes; callable without a credential. */
    getAuthScheme(
      request: AuthSchemeInit = {},
      options?: CallOptions,
    ): Promise<AuthSchemeAdvertisement> {
      return rpc.getAuthScheme(refuseNull(request, 'request', {}), options);
    },

    /** What the caller's roles allow on the scope. Read-only. */
    probeCapabilities(scope: ScopeInit, options?: CallOptions): Promise<BackupScopeCapabilities> {
      return rpc.probeCapabilities({ scope: requirePresent(scope, 'scope') }, options);
    },

    /** Registers a recurring backup; returns the effective interval in ms (clamped up). */
    async scheduleBackup(
      scope: ScopeInit,
      incremental: boolean,
      intervalMs: number,
      options?: CallOptions,
    ): Promise<number> {
      requirePresent(scope, 'scope');
      requirePositiveMs(intervalMs, 'intervalMs');
      const response = await rpc.scheduleBackup(
        { scope, incremental, interval: durationFromMs(intervalMs) },
        options,
      );
      return durationToMs(response.effectiveInterval);
    },

    /** Removes the full or incremental schedule of the scope; idempotent. */
    async cancelSchedule(
      scope: ScopeInit,
      incremental: boolean,
      options?: CallOptions,
    ): Promise<void> {
      await rpc.cancelSchedule({ scope: requirePresent(scope, 'scope'), incremental }, options);
    },

    /** Schedules and last runs of the scope, or null when the target is absent. */
    async getScopeStatus(
      scope: ScopeInit,
      options?: CallOptions,
    ): Promise<BackupScopeStatusResponse | null> {
      const response = await rpc.getScopeStatus({ scope: requirePresent(scope, 'scope') }, options);
      return response.found ? response : null;
    },

    /** Whether the server offers health monitoring. */
    async isHealthMonitoringAvailable(options?: CallOptions): Promise<boolean> {
      const response = await rpc.isHealthMonitoringAvailable({}, options);
      return response.available;
    },

    /** @deprecated STORE0002: use startBackupHealthCheck. */
    async checkBackupHealth(
      backupId: string,
      options?: CallOptions,
    ): Promise<BackupHealthReport | null> {
      requireId(backupId, 'backupId');
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC itself
      const response = await rpc.checkBackupHealth({ backupId }, options);
      return response.found ? (response.report ?? null) : null;
    },

    /** The stored health report of a backup, or null when none is stored. */
    async getBackupHealth(
      backupId: string,
      options?: CallOptions,
    ): Promise<BackupHealthReport | null> {
      requireId(backupId, 'backupId');
      const response = await rpc.getBackupHealth({ backupId }, options);
      return response.found ? (response.report ?? null) : null;
    },

    /** Turns periodic verification of one backup on or off. */
    async configureBackupHealth(
      backupId: string,
      config: HealthMonitoringConfig,
      options?: CallOptions,
    ): Promise<void> {
      requireId(backupId, 'backupId');
      requirePresent(config, 'config');
      if (config.monitoringEnabled) requirePositiveMs(config.intervalMs, 'config.intervalMs');
      await rpc.configureBackupHealth(
        {
          backupId,
          monitoringEnabled: config.monitoringEnabled,
          interval: config.intervalMs > 0 ? durationFromMs(config.intervalMs) : undefined,
        },
        options,
      );
    },
  };
}

/** The typed backup client. */
export type BackupClient = ReturnType<typeof createBackupClient>;

function withTracking<T extends { trackingOperationId?: string }>(
  request: T,
  operationId: string | undefined,
): T {
  return operationId === undefined ? request : { ...request, trackingOperationId: operationId };
}
