import type { ConnectRouter } from '@connectrpc/connect';
import { foregroundInterceptor } from './foreground-interceptor.js';
import {
  BackupControlService,
  BackupInsightService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { BackupLifecycleService } from '@store/contract/gen/store/lifecycle/v1/backup_lifecycle_pb.js';
import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import type { Notifications } from '../engines/notifications/notifications.js';
import { addNotificationsApi } from './notifications/notifications-service.js';
import { NOTIFICATIONS_SERVICE } from './notifications/notifications-access.js';
import type { BackupLifecycle } from '../engines/backup/lifecycle/backup-lifecycle.js';
import { addBackupLifecycleApi } from './lifecycle/backup-lifecycle-service.js';
import { BACKUP_LIFECYCLE_SERVICE } from './lifecycle/backup-lifecycle-access.js';
import { RestoreDrillService } from '@store/contract/gen/store/drills/v1/restore_drills_pb.js';
import { DrillProofService } from '@store/contract/gen/store/drills/v1/drill_proofs_pb.js';
import { addRestoreDrillApi } from './drills/restore-drill-service.js';
import { addDrillProofApi } from './drills/drill-proof-service.js';
import { DRILL_PROOF_SERVICE } from './drills/drill-proof-access.js';
import { RESTORE_DRILL_SERVICE } from './drills/restore-drill-access.js';
import { RestoreDrillPlanService } from '@store/contract/gen/store/drills/v1/drill_plans_pb.js';
import { addRestoreDrillPlanApi } from './drills/drill-plan-service.js';
import { RESTORE_DRILL_PLAN_SERVICE } from './drills/drill-plan-access.js';
import type { ServerConfig } from '../config/settings.js';
import type { BackupEngine } from '../engines/backup/backup-engine.js';
import type { BackupComparisons } from '../engines/backup/insight/backup-comparisons.js';
import type { ScheduleOverview } from '../engines/backup/schedules/schedule-overview.js';
import type { TreeDataEngine } from '../engines/data/tree-data-engine.js';
import type { CredentialVerifier } from '../engines/identity/credential-verifier.js';
import type { SchemaEngine } from '../engines/schema/schema-engine.js';
import type { SchemaOperations } from '../engines/schema/schema-tracked.js';
import type { SchemaInsight } from '../engines/schema/insight/schema-insight.js';
import type { Logger } from '../logging/logger.js';
import {
  addStoreBackupApi,
  addStoreDataApi,
  addStoreIdentityApi,
  addStoreSchemaApi,
} from './apis.js';
import type { AuthSchemeView } from './auth-schemes.js';
import { addBackupInsightApi } from './backup-insight/backup-insight-service.js';
import { BACKUP_INSIGHT_SERVICE } from './backup-insight/backup-insight-access.js';
import { authorizerNamed } from './auth/authorizers.js';
import { errorMappingInterceptor } from './error-interceptor.js';
import { previewStartLimitInterceptor } from './preview-start-limit.js';
import { CallerRateLimiter } from '../engines/operations/caller-rate-limiter.js';
import { registerHealthService, type HealthRegistry } from './grpc/health-service.js';
import type { ResultMapper } from './operations/operation-mapping.js';
import type { OperationsFacade } from './operations/operations-facade.js';
import { REFLECTION_SERVICES, registerReflectionService } from './grpc/reflection-service.js';
import {
  BACKUP_SERVICE,
  DATA_SERVICE,
  IDENTITY_SERVICE,
  SCHEMA_SERVICE,
  StoreApiHost,
  type StoreApiSetup,
} from './store-api-host.js';
import { auditInterceptor } from './audit-interceptor.js';
import { metricsInterceptor, type CallMetrics } from './metrics-interceptor.js';
import { parseTrustedProxies } from '../config/trusted-proxies.js';
import type { AuditTrail } from '../engines/audit/audit-trail.js';
import { SignInLimiter } from '../engines/audit/sign-in-limiter.js';
import type { SubjectDirectory } from '../engines/identity/subject-names.js';
import { addSchemaInsightApi } from './schema-insight/schema-insight-service.js';
import { SCHEMA_INSIGHT_SERVICE } from './schema-insight/schema-insight-access.js';

/** The store's own services, as health and reflection name them. */
export const STORE_SERVICES = [
  BackupControlService,
  SchemaControlService,
  TreeDataService,
  IdentityService,
  SchemaInsightService,
  BackupInsightService,
  BackupLifecycleService,
  NotificationService,
  RestoreDrillService,
  RestoreDrillPlanService,
  DrillProofService,
] as const;

export interface ShippedServerDependencies {
  treeData: TreeDataEngine;
  /** The backup engine; without it the backup service offers discovery only. */
  backup?: BackupEngine | undefined;
  /** Restore previews and backup diffs; without it BackupInsightService is Unimplemented. */
  insight?: BackupComparisons | undefined;
  /** Retention and protections; without it BackupLifecycleService is Unimplemented. */
  lifecycle?: BackupLifecycle | undefined;
  /** The schedules overview; without it ListSchedules and ConfigureScheduleExtras are Unimplemented. */
  schedules?: ScheduleOverview | undefined;
  operations: OperationsFacade;
  verify: CredentialVerifier;
  resultMappers: Readonly<Record<string, ResultMapper>>;
  /** The schema engine and its tracked operations; without them those RPCs are Unimplemented. */
  schema?: { engine: SchemaEngine; tracked: SchemaOperations } | undefined;
  /** Dry-runs and dead-letter replay (issue 16); without it SchemaInsightService is not served. */
  schemaInsight?: SchemaInsight | undefined;
  health: HealthRegistry;
  logger: Logger;
  /** The audit trail every state-changing or refused call is recorded in (issue 18). */
  audit?: AuditTrail | undefined;
  /** Names for recorded subjects (ResolveSubjects); without it that RPC is Unimplemented. */
  subjects?: SubjectDirectory | undefined;
  /** Channels, delivery log and active alerts; without it NotificationService is Unimplemented. */
  notifications?: Notifications | undefined;
  /** Where every call is counted (the Prometheus gRPC server metrics); without it, nowhere. */
  callMetrics?: CallMetrics | undefined;
}

/** What the shipped server advertises: `bearer` (API tokens are always on) and `oidc` when set. */
export function advertisedSchemes(config: ServerConfig): AuthSchemeView[] {
  const schemes: AuthSchemeView[] = [
    {
      schemeId: 'bearer',
      displayName: 'API token',
      parameters: { header: config.credentialHeader, prefix: config.credentialScheme },
    },
  ];
  if (config.oidcIssuer && config.oidcClientId) {
    schemes.push({
      schemeId: 'oidc',
      displayName: 'Single sign-on',
      parameters: {
        issuer: config.oidcIssuer,
        client_id: config.oidcClientId,
        scope: config.oidcScope,
      },
    });
  }
  return schemes;
}

/**
 * The shipped server's host: all four store APIs with the configured authorizer, plus health
 * and reflection (not guarded). Routes and interceptors feed both listeners.
 */
export function createShippedHost(config: ServerConfig, deps: ShippedServerDependencies) {
  const host = new StoreApiHost(deps.logger);
  // One per process: every service counts the same address's failures together.
  const signInLimiter = new SignInLimiter({
    limit: config.signInFailureLimit,
    windowMs: config.signInFailureWindowSeconds * 1000,
  });
  // One per process, shared by both preview services: a caller's starts count together.
  const previewStarts = new CallerRateLimiter({
    perMinute: config.previewStartsPerMinute,
    burst: config.previewStartBurst,
  });
  const configure = (setup: StoreApiSetup) => {
    setup.options = {
      requireAuthorization: config.requireAuthorization,
      credentialHeaderName: config.credentialHeader,
      credentialScheme: config.credentialScheme,
      activeTenantHeaderName: config.activeTenantHeader,
      advertisedAuthSchemes: advertisedSchemes(config),
      trustedTenant: config.trustedTenant,
      streamCredentialCheckMs: config.streamCredentialCheckSeconds * 1000,
    };
    setup.authorizer = authorizerNamed(config.authorizer);
    setup.verify = deps.verify;
    setup.signInLimiter = signInLimiter;
  };
  const facades = { operations: deps.operations, resultMappers: deps.resultMappers };
  addStoreBackupApi(host, { ...facades, backup: deps.backup }, configure);
  addStoreSchemaApi(
    host,
    {
      ...facades,
      complianceOperations: deps.operations,
      engine: deps.schema?.engine,
      tracked: deps.schema?.tracked,
    },
    configure,
  );
  addStoreDataApi(host, deps.treeData, configure);
  addStoreIdentityApi(
    host,
    configure,
    deps.audit && { trail: deps.audit, operatorTenant: config.bootstrapTenant },
    deps.subjects,
  );
  if (deps.schemaInsight) {
    addSchemaInsightApi(
      host,
      { insight: deps.schemaInsight, operations: deps.operations },
      configure,
    );
  }
  addBackupInsightApi(
    host,
    { ...facades, insight: deps.insight, schedules: deps.schedules },
    configure,
  );
  addBackupLifecycleApi(host, { ...facades, lifecycle: deps.lifecycle }, configure);
  addNotificationsApi(host, deps.notifications, configure);
  addRestoreDrillApi(host, { ...facades, drills: deps.backup?.drills }, configure);
  addRestoreDrillPlanApi(host, deps.backup?.drillPlans, configure);
  addDrillProofApi(host, { ...facades, drills: deps.backup?.drills }, configure);
  host.addRoutes('grpc.health', (router: ConnectRouter) =>
    registerHealthService(router, deps.health),
  );
  host.addRoutes('grpc.reflection', (router: ConnectRouter) =>
    registerReflectionService(router, [...STORE_SERVICES, Health, ...REFLECTION_SERVICES]),
  );
  return {
    routes: host.routes,
    // Error mapping wraps the access checks so even the interceptors' own faults become proper
    // statuses; the audit seam wraps both, so it records each call once with its final status;
    // the metrics wrap everything, so they count the status the client gets.
    interceptors: [
      ...(deps.callMetrics ? [metricsInterceptor(deps.callMetrics)] : []),
      ...(deps.audit
        ? [
            auditInterceptor({
              services: [
                BACKUP_SERVICE,
                SCHEMA_SERVICE,
                DATA_SERVICE,
                IDENTITY_SERVICE,
                SCHEMA_INSIGHT_SERVICE,
                BACKUP_INSIGHT_SERVICE,
                BACKUP_LIFECYCLE_SERVICE,
                NOTIFICATIONS_SERVICE,
                RESTORE_DRILL_SERVICE,
                RESTORE_DRILL_PLAN_SERVICE,
                DRILL_PROOF_SERVICE,
              ],
              trail: deps.audit,
              trustedProxies: parseTrustedProxies(config.trustedProxies),
            }),
          ]
        : []),
      errorMappingInterceptor(deps.logger),
      ...host.interceptors,
      // Inside the access interceptors, which resolve the caller it counts for.
      previewStartLimitInterceptor([BACKUP_INSIGHT_SERVICE, SCHEMA_INSIGHT_SERVICE], previewStarts),
      // Inside them too: it counts each call for its tenant.
      foregroundInterceptor(),
    ],
  };
}
