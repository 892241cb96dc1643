import type { ConnectRouter } from '@connectrpc/connect';
import { DrillProofService } from '@store/contract';
import type { Proof } from '../../engines/backup/drills/drill-proofs.js';
import type { RestoreDrills } from '../../engines/backup/drills/restore-drills.js';
import { RESTORE_DRILL_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import { callScopeOf } from '../call-scope.js';
import type { ResultMapper } from '../operations/operation-mapping.js';
import { operationQueries } from '../operations/operation-queries.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { DRILL_PROOF_SERVICE } from './drill-proof-access.js';
import { fromStored } from './restore-drill-service.js';

export interface DrillProofBindingFacades {
  /** The drills engine; without it (or the operations facade) every RPC is Unimplemented. */
  drills?: RestoreDrills | undefined;
  operations?: OperationsFacade | undefined;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

const proofOf = (proof: Proof) => ({
  ...(proof.lastProven && { lastProven: fromStored(proof.lastProven) }),
  ...(proof.lastDrill && { lastDrill: fromStored(proof.lastDrill) }),
});

/** DrillProofService: last proven per tree and per backup, and the drills' operations. */
export function registerDrillProofService(
  router: ConnectRouter,
  facades: DrillProofBindingFacades,
): void {
  const { drills, operations } = facades;
  if (!drills || !operations) {
    router.service(DrillProofService, {});
    return;
  }
  const queries = operationQueries(
    operations,
    RESTORE_DRILL_OPERATION_KINDS,
    facades.resultMappers,
  );
  router.service(DrillProofService, {
    async listTreeProofs(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await drills.treeProofs(tenant, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return {
        trees: page.trees.map((t) => ({ treeId: t.treeName, ...proofOf(t) })),
        nextPageToken: page.nextPageToken,
      };
    },
    async getBackupProofs(request, context) {
      const { tenant } = callScopeOf(context);
      const proofs = await drills.backupProofs(tenant, request.backupIds);
      return { backups: proofs.map((p) => ({ backupId: p.backupId, ...proofOf(p) })) };
    },
    listRestoreDrillOperations: queries.list,
  });
}

/** Adds DrillProofService with the same interceptor, authorizer and access gate. */
export function addDrillProofApi(
  host: StoreApiHost,
  facades: DrillProofBindingFacades,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  return addGuardedApi(
    host,
    DRILL_PROOF_SERVICE,
    (router) => registerDrillProofService(router, facades),
    configure,
  );
}
