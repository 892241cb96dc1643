import { timestampFromMs, timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import type { AuditTrail } from '../../engines/audit/audit-trail.js';
import type { SubjectDirectory } from '../../engines/identity/subject-names.js';
import { callerScopeOf } from '../call-scope.js';

/** What ListAuditRecords reads: the trail, and which tenant's admins also see unscoped records. */
export interface AuditListing {
  trail: AuditTrail;
  /** Admins of this tenant also see records of calls that named no tenant (refused sign-ins). */
  operatorTenant: string;
}

/**
 * IdentityService. WhoAmI: the caller as the server resolved the credential (a caller of several
 * tenants may ask without the active-tenant header; active_tenant is then empty).
 * ListAuditRecords: the active tenant's audit trail (admin only, by the least-role table);
 * Unimplemented when the host keeps no trail. ResolveSubjects: names for recorded subjects
 * (viewer), Unimplemented without a subject directory.
 */
export function registerIdentityService(
  router: ConnectRouter,
  audit?: AuditListing,
  subjects?: SubjectDirectory,
): void {
  router.service(IdentityService, {
    whoAmI(_request, context) {
      const { caller, tenant } = callerScopeOf(context);
      return {
        subject: caller.subject,
        displayName: caller.displayName,
        schemeId: caller.schemeId,
        tenants: [...caller.grants.entries()].map(([tenantId, roles]) => ({
          tenantId,
          roles: [...roles],
        })),
        activeTenant: tenant ?? '',
      };
    },
    async resolveSubjects(request, context) {
      if (!subjects) throw new ConnectError('this server names no subjects', Code.Unimplemented);
      const { caller, tenant } = callerScopeOf(context);
      if (tenant === undefined) {
        throw new ConnectError(
          'the active tenant is required: the caller is granted several tenants',
          Code.InvalidArgument,
        );
      }
      return { subjects: await subjects.resolve(request.subjects, tenant, caller) };
    },
    async listAuditRecords(request, context) {
      if (!audit) throw new ConnectError('this server keeps no audit trail', Code.Unimplemented);
      const { tenant } = callerScopeOf(context);
      if (tenant === undefined) {
        throw new ConnectError(
          'the active tenant is required: the caller is granted several tenants',
          Code.InvalidArgument,
        );
      }
      const page = await audit.trail.list(tenant, tenant === audit.operatorTenant, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
        subject: request.subject,
        method: request.method,
        outcome: request.outcome,
        since: request.since ? timestampMs(request.since) : undefined,
        until: request.until ? timestampMs(request.until) : undefined,
      });
      return {
        records: page.records.map((record) => ({
          recordId: record.id,
          time: timestampFromMs(record.at),
          tenantId: record.tenant,
          subject: record.subject,
          service: record.service,
          method: record.method,
          ...(record.targetId !== null && { targetId: record.targetId }),
          ...(typeof record.targetName === 'string' && { targetName: record.targetName }),
          outcome: record.outcome,
          clientAddress: record.clientAddress,
          detail: record.detail,
        })),
        nextPageToken: page.nextPageToken,
      };
    },
  });
}
