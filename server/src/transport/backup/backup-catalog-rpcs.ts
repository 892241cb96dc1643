import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { BackupKind, type BackupControlService } from '@store/contract';
import type { BackupEngine } from '../../engines/backup/backup-engine.js';
import { describeContentDigest } from '../../engines/backup/capture/content-digest.js';
import { validateTreeName } from '../../engines/data/tree-names.js';
import { auditFactsKey } from '../audit-interceptor.js';
import { permittedOperationsOf } from '../auth/permitted-operations.js';
import { callScopeOf } from '../call-scope.js';
import { healthOf, manifestToProto } from './backup-mapping.js';

type Impl = Partial<ServiceImpl<typeof BackupControlService>>;

/** ListBackups, StreamBackups, DescribeBackup, DeleteBackup and ProbeCapabilities. */
export function catalogRpcs(engine: BackupEngine): Impl {
  return {
    async listBackups(request, context) {
      const { tenant } = callScopeOf(context);
      const kind = request.kind === BackupKind.UNSPECIFIED ? undefined : BackupKind[request.kind];
      const page = await engine.catalog.list(tenant, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
        filter: {
          treeName: request.treeId || undefined,
          kind,
          setId: request.setId || undefined,
          createdAfter: request.createdAfter && timestampDate(request.createdAfter).getTime(),
          createdBefore: request.createdBefore && timestampDate(request.createdBefore).getTime(),
          nameContains: request.nameContains || undefined,
          healthStatus:
            request.healthStatus === undefined ? undefined : healthOf(request.healthStatus),
        },
      });
      return { backups: page.entries.map(manifestToProto), nextPageToken: page.nextPageToken };
    },
    async *streamBackups(_request, context) {
      const { tenant } = callScopeOf(context);
      for await (const entry of engine.catalog.stream(tenant, context.signal)) {
        yield manifestToProto(entry);
      }
    },
    async describeBackup(request, context) {
      const { tenant } = callScopeOf(context);
      const found = await engine.catalog.describe(tenant, request.backupId);
      if (!found) return { found: false };
      return {
        found: true,
        manifest: manifestToProto(found.entry),
        chainBackupIds: found.chain,
        setMemberBackupIds: found.setMembers,
        dependantBackupIds: found.dependants,
        contentDigestSummary: describeContentDigest(found.entry.manifest.contentDigest),
      };
    },
    async deleteBackup(request, context) {
      const { tenant } = callScopeOf(context);
      // The audit record keeps the name: once the row is gone no later lookup can give it.
      const facts = context.values.get(auditFactsKey);
      const name = facts && (await engine.catalog.nameOf(tenant, request.backupId));
      if (facts && name) facts.targetName = name;
      const ids = await engine.catalog.delete(tenant, request.backupId, request.cascade);
      return { deleted: ids.length > 0, deletedBackupIds: ids };
    },
    async probeCapabilities(request, context) {
      const treeId = validateTreeName(request.scope?.treeId, 'scope.tree_id');
      // The configured authorizer answers for each operation, as it would on the real call.
      return { treeId, allowedOperations: await permittedOperationsOf(context)(treeId) };
    },
  };
}
