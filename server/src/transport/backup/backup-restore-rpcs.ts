import type { MethodImpl, ServiceImpl } from '@connectrpc/connect';
import type { BackupControlService, backupV1 } from '@store/contract';
import type { BackupEngine } from '../../engines/backup/backup-engine.js';
import type { RestoreRequest, RestoreResult } from '../../engines/backup/backup-types.js';
import { auditFactsKey } from '../audit-interceptor.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle } from '../operations/operation-mapping.js';
import { exportChunkHandoff } from '../connect/export-frames.js';
import { starter } from './backup-capture-rpcs.js';
import { modeOf, restoreToProto, scopeOf } from './backup-mapping.js';

type Impl = Partial<ServiceImpl<typeof BackupControlService>>;

function restoreRequest(request: backupV1.RestoreRequestMessage): RestoreRequest {
  return {
    backupId: request.backupId,
    targetTreeId: request.targetTreeId,
    scope: scopeOf(request.scope),
    mode: modeOf(request.mode),
    operationId: request.operationId,
    applyBatchSize: request.applyBatchSize,
  };
}

/** StartRestore and StartColdRestore (tracked). */
export function trackedRestoreRpcs(engine: BackupEngine): Impl {
  return {
    async startRestore(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(await engine.startRestore(who, restoreRequest(request), false));
    },
    async startColdRestore(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(await engine.startRestore(who, restoreRequest(request), true));
    },
  };
}

/** What a successful revert's audit record says it discarded. */
export function revertDetail(treeId: string, discardedWrites: number): string {
  return discardedWrites === 0
    ? `tree ${treeId} reverted; no writes were made since the restore`
    : `tree ${treeId} reverted; discarded ${discardedWrites} acknowledged ` +
        `write${discardedWrites === 1 ? '' : 's'} made since the restore`;
}

/** The obsolete blocking restore and RevertRestore. */
export function restoreRpcs(engine: BackupEngine): Impl {
  return {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    async restoreBackup(request, context) {
      const who = starter(context);
      const op = await engine.startRestore(who, restoreRequest(request), false);
      const result = (await engine.wait(who.tenant, op.id, context.signal)) as RestoreResult;
      // Spec 000, Resources rule 2: the wire response carries no dead-letter counters.
      return restoreToProto(result);
    },
    async revertRestore(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const writes = request.acknowledgedWritesSinceRestore;
      const throughSequence = request.acknowledgedThroughSequence;
      const outcome = await engine.revertRestore(
        tenant,
        {
          backupId: request.backupId,
          targetTreeId: request.targetTreeId,
          mode: modeOf(request.mode),
          operationId: request.operationId,
          manifestChain: [...request.manifestChain],
          entriesApplied: Number(request.entriesApplied),
          shadowPhysicalTreeId: request.shadowPhysicalTreeId,
          previousPhysicalTreeId: request.previousPhysicalTreeId,
        },
        {
          writes: writes === undefined ? undefined : Number(writes),
          throughSequence: throughSequence === undefined ? undefined : Number(throughSequence),
        },
        caller.subject,
      );
      // The audit record says what the revert dropped (revert never loses a write silently).
      const facts = context.values.get(auditFactsKey);
      if (facts) facts.detail = revertDetail(outcome.treeId, outcome.discardedWrites);
      return {};
    },
  };
}

/**
 * ExportArtifact, registered on its own (backup-service.ts) so its responses are never
 * compressed: artifacts are gzip already.
 */
export function exportArtifactRpc(
  engine: BackupEngine,
): MethodImpl<typeof BackupControlService.method.exportArtifact> {
  return async function* exportArtifact(request, context) {
    const { tenant } = callScopeOf(context);
    // Set for the binary protocols: the chunk's bytes skip connect's two copies (export-frames.ts).
    const handoff = exportChunkHandoff(context);
    // Pulled one chunk at a time: connect awaits each write, so a slow reader holds back disk.
    const chunks = engine.exportArtifact(
      tenant,
      request.backupId,
      request.artifactId,
      context.signal,
    );
    // A client that goes away while connect waits for 'drain' leaves this call suspended for
    // good (connect neither asks for the next chunk nor ends the stream): ending the export on
    // abort closes its file and frees its hash state instead of leaving both to the GC.
    const end = () => void chunks.return(undefined).catch(() => undefined);
    context.signal.addEventListener('abort', end, { once: true });
    try {
      for await (const data of chunks) {
        yield handoff ? handoff.carry(data) : { data };
      }
    } finally {
      context.signal.removeEventListener('abort', end);
    }
  };
}
