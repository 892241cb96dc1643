import type { ConnectRouter } from '@connectrpc/connect';
import { BackupControlService } from '@store/contract';
import type { BackupEngine } from '../../engines/backup/backup-engine.js';
import { BACKUP_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import type { AuthSchemeSource } from '../auth-schemes.js';
import { blockingCaptureRpcs, trackedCaptureRpcs } from './backup-capture-rpcs.js';
import { catalogRpcs } from './backup-catalog-rpcs.js';
import { scheduleAndHealthRpcs, trackedMaintenanceRpcs } from './backup-health-rpcs.js';
import { exportArtifactRpc, restoreRpcs, trackedRestoreRpcs } from './backup-restore-rpcs.js';
import { frameExportChunksUncopied } from '../connect/export-frames.js';
import { type ResultMapper } from '../operations/operation-mapping.js';
import { operationQueries } from '../operations/operation-queries.js';
import type { OperationsFacade } from '../operations/operations-facade.js';

export interface BackupBindingFacades {
  /** Without it the tracked RPCs answer Unimplemented (spec 000, Endpoints). */
  operations?: OperationsFacade | undefined;
  /** The backup engine (the control facade); without it only the discovery RPCs exist. */
  backup?: BackupEngine | undefined;
  schemes: AuthSchemeSource;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

/**
 * BackupControlService. RPCs whose engine is not on this server are left out of the
 * implementation, so connect answers them Unimplemented.
 */
export function registerBackupService(router: ConnectRouter, facades: BackupBindingFacades): void {
  const { operations, resultMappers, backup } = facades;
  const queries = operations && operationQueries(operations, BACKUP_OPERATION_KINDS, resultMappers);
  router.service(BackupControlService, {
    getAuthScheme() {
      return { schemes: facades.schemes().map((s) => ({ ...s })) };
    },
    ...(backup && {
      ...blockingCaptureRpcs(backup),
      ...catalogRpcs(backup),
      ...restoreRpcs(backup),
      ...scheduleAndHealthRpcs(backup),
    }),
    // The eleven tracked RPCs need the operations facade (spec 000, Endpoints).
    ...(operations &&
      backup && {
        ...trackedCaptureRpcs(backup),
        ...trackedRestoreRpcs(backup),
        ...trackedMaintenanceRpcs(backup),
      }),
    ...(queries && {
      getBackupOperationStatus: queries.status,
      listBackupOperations: queries.list,
      cancelBackupOperation: queries.cancel,
    }),
  });
  if (backup) {
    // Artifacts are gzip already: compressing them again for a client that offers gzip (grpc-js,
    // Envoy upstream) would cost server and client CPU for no bytes saved. Registered after the
    // service, this handler replaces the Unimplemented one the service made for the method;
    // the adapter's own options (limits, interceptors) still apply.
    router.rpc(BackupControlService.method.exportArtifact, exportArtifactRpc(backup), {
      compressMinBytes: Number.POSITIVE_INFINITY,
    });
    frameExportChunksUncopied(router);
  }
}
