import {
  Code,
  ConnectError,
  type ConnectRouter,
  type MethodImpl,
  type ServiceImpl,
} from '@connectrpc/connect';
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

type BackupImpl = Partial<ServiceImpl<typeof BackupControlService>>;

/**
 * BackupControlService. RPCs whose engine is not on this server are left out of the
 * implementation, so they answer Unimplemented.
 */
export function registerBackupService(router: ConnectRouter, facades: BackupBindingFacades): void {
  const { operations, resultMappers, backup } = facades;
  const queries = operations && operationQueries(operations, BACKUP_OPERATION_KINDS, resultMappers);
  const implementation: BackupImpl = {
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
  };
  registerEachMethodOnce(router, implementation, backup && exportArtifactRpc(backup));
  if (backup) frameExportChunksUncopied(router);
}

/**
 * Registers each method of the service once, as router.service would (a method left out of the
 * implementation answers Unimplemented), except ExportArtifact, under options of its own:
 * artifacts are gzip already, so compressing them again for a client that offers gzip (grpc-js,
 * Envoy upstream) would cost server and client CPU for no bytes saved. The router's own options
 * (limits, interceptors) still apply to every method.
 */
function registerEachMethodOnce(
  router: ConnectRouter,
  implementation: BackupImpl,
  exportArtifact: MethodImpl<typeof BackupControlService.method.exportArtifact> | undefined,
): void {
  const service = BackupControlService;
  for (const method of service.methods) {
    if (method === service.method.exportArtifact && exportArtifact) {
      router.rpc(service.method.exportArtifact, exportArtifact, {
        compressMinBytes: Number.POSITIVE_INFINITY,
      });
      continue;
    }
    const given: unknown = implementation[method.localName as keyof BackupImpl];
    const impl =
      typeof given === 'function'
        ? (given as (...args: unknown[]) => unknown).bind(implementation)
        : () => {
            throw new ConnectError(
              `${service.typeName}.${method.name} is not implemented`,
              Code.Unimplemented,
            );
          };
    // The loop's method is the union of all of them: each impl was typed against its own.
    router.rpc(method, impl as never);
  }
}
