import type { ServiceImpl } from '@connectrpc/connect';
import type { BackupControlService } from '@store/contract';
import type { BackupEngine } from '../../engines/backup/backup-engine.js';
import type { CaptureResult, SetCaptureResult } from '../../engines/backup/backup-types.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle } from '../operations/operation-mapping.js';
import { captureToProto, scopeOf, setCaptureToProto } from './backup-mapping.js';

type Impl = Partial<ServiceImpl<typeof BackupControlService>>;

interface CaptureWire {
  name: string;
  scope?: Parameters<typeof scopeOf>[0];
  pageSize: number;
  labels: Record<string, string>;
  trackingOperationId?: string | undefined;
  maxEntriesPerSecond?: number | undefined;
}

function captureRequest(request: CaptureWire, baseBackupId?: string) {
  return {
    name: request.name,
    scope: scopeOf(request.scope) ?? { treeId: '' },
    pageSize: request.pageSize,
    labels: { ...request.labels },
    ...(request.maxEntriesPerSecond && { maxEntriesPerSecond: request.maxEntriesPerSecond }),
    ...(baseBackupId !== undefined && { baseBackupId }),
  };
}

function starter(context: Parameters<typeof callScopeOf>[0], trackingId?: string) {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject, trackingId };
}

/** Start RPCs of captures (tracked). */
export function trackedCaptureRpcs(engine: BackupEngine): Impl {
  return {
    async startBackup(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(await engine.startCapture(who, captureRequest(request), false));
    },
    async startIncrementalBackup(request, context) {
      const who = starter(context, request.trackingOperationId);
      const body = captureRequest(request, request.baseBackupId);
      return toHandle(await engine.startCapture(who, body, true));
    },
    async startBackupSet(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(
        await engine.startSet(who, {
          name: request.name,
          scopes: request.scopes.map((s) => scopeOf(s) ?? { treeId: '' }),
          crossTreeConsistent: request.crossTreeConsistent,
          pageSize: request.pageSize,
          labels: { ...request.labels },
          ...(request.maxEntriesPerSecond && { maxEntriesPerSecond: request.maxEntriesPerSecond }),
        }),
      );
    },
  };
}

/**
 * The obsolete blocking captures: the same engine through the runner, waiting for the result.
 * Their tracking id is ignored, as the blocking forms never had one.
 */
export function blockingCaptureRpcs(engine: BackupEngine): Impl {
  return {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    async createBackup(request, context) {
      const who = starter(context);
      const op = await engine.startCapture(who, captureRequest(request), false);
      const result = (await engine.wait(who.tenant, op.id, context.signal)) as CaptureResult;
      return captureToProto(result);
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    async createIncrementalBackup(request, context) {
      const who = starter(context);
      const body = captureRequest(request, request.baseBackupId);
      const op = await engine.startCapture(who, body, true);
      const result = (await engine.wait(who.tenant, op.id, context.signal)) as CaptureResult;
      return captureToProto(result);
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    async createBackupSet(request, context) {
      const who = starter(context);
      const op = await engine.startSet(who, {
        name: request.name,
        scopes: request.scopes.map((s) => scopeOf(s) ?? { treeId: '' }),
        crossTreeConsistent: request.crossTreeConsistent,
        pageSize: request.pageSize,
        labels: { ...request.labels },
        ...(request.maxEntriesPerSecond && { maxEntriesPerSecond: request.maxEntriesPerSecond }),
      });
      const result = (await engine.wait(who.tenant, op.id, context.signal)) as SetCaptureResult;
      return setCaptureToProto(result);
    },
  };
}

export { starter };
