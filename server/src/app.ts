import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { HealthCheckResponse_ServingStatus as ServingStatus } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { ConfigError, DEFAULT_METRICS_PORT, type ServerConfig } from './config/settings.js';
import { openArtifactStore } from './engines/backup/artifacts/index.js';
import { BackupEngine, type BackupEngineOptions } from './engines/backup/backup-engine.js';
import { BackupComparisons } from './engines/backup/insight/backup-comparisons.js';
import { BackupLifecycle } from './engines/backup/lifecycle/backup-lifecycle.js';
import {
  retentionDeletionRecord,
  retentionStopRecord,
} from './engines/backup/lifecycle/retention-audit.js';
import { ScheduleOverview } from './engines/backup/schedules/schedule-overview.js';
import { TreeDataEngine } from './engines/data/tree-data-engine.js';
import type { ApiTokenService } from './engines/identity/api-tokens.js';
import { OperationRunner } from './engines/operations/operation-runner.js';
import { withRestoreReverts } from './engines/backup/restore/restore-reverts.js';
import { SchemaEngine } from './engines/schema/schema-engine.js';
import { SchemaOperations } from './engines/schema/schema-tracked.js';
import { SchemaInsight } from './engines/schema/insight/schema-insight.js';
import { ValidationPool } from './engines/schema/validation/validation-pool.js';
import { createStaticHandler } from './http/static-files.js';
import { createHostAllowlist } from './http/host-allowlist.js';
import { listen } from './http/listeners.js';
import { listenForMetrics, type MetricsListener } from './http/metrics-listener.js';
import { StoreMetrics } from './metrics/store-metrics.js';
import { StoreReadings } from './engines/store-readings.js';
import { Notifications } from './engines/notifications/notifications.js';
import { DEFAULT_NOTIFICATION_TIMING } from './engines/notifications/notification-settings.js';
import type { Logger } from './logging/logger.js';
import { openStorage, type Storage } from './storage/database.js';
import { HealthRegistry } from './transport/grpc/health-service.js';
import { STORE_SERVICES, createShippedHost } from './transport/routes.js';
import { SCHEMA_RESULT_MAPPERS } from './transport/schema/schema-mapping.js';
import { BACKUP_RESULT_MAPPERS } from './transport/backup/backup-mapping.js';
import { setUpIdentity } from './engines/identity/identity-setup.js';
import { SubjectDirectory } from './engines/identity/subject-names.js';
import { ANONYMOUS } from './engines/identity/principal.js';
import {
  UNNAMED_SUBJECTS,
  type SubjectNamer,
} from './engines/backup/lifecycle/protection-refusal.js';
import { AuditTrail, localTokenChange } from './engines/audit/audit-trail.js';
import { auditTargetNames } from './engines/audit/audit-target-names.js';
import { AuditStore } from './storage/audit/audit-store.js';
import { refreshStaleEntryStatistics } from './storage/data/planner-statistics.js';
import { backupNamesByIds } from './storage/backup/backup-store.js';
import { operationTargetsByIds } from './storage/operations/operation-store.js';

/** A running server: its ports, its parts (for tests), and a graceful stop. */
export interface StoreServer {
  httpUrl: string;
  grpcUrl: string;
  /** The Prometheus listener's base URL; undefined when off (or its default port was taken). */
  metricsUrl: string | undefined;
  storage: Storage;
  runner: OperationRunner;
  treeData: TreeDataEngine;
  schema: SchemaEngine;
  backup: BackupEngine;
  /** Retention and protections (tests run the apply after a scheduled capture directly). */
  lifecycle: BackupLifecycle;
  /** The first admin token, when this start created it (empty data directory). */
  bootstrapToken: string | undefined;
  tokens: ApiTokenService;
  audit: AuditTrail;
  /** Restore previews and backup diffs (tests run its preview-storage sweep). */
  insight: BackupComparisons;
  /** Channels, the outbox's delivery worker and the alert conditions (issue 35). */
  notifications: Notifications;
  stop(): Promise<void>;
}

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The composition root: storage → engines → operations runner → routes → two listeners. Building
 * the routes is separate from listening, so tests start the same server on port 0.
 */
export async function startStoreServer(
  config: ServerConfig,
  logger: Logger,
  /** Test seams of the backup engine (the fault tests slow pages down to kill mid-run). */
  seams: Pick<BackupEngineOptions, 'afterCapturePage' | 'afterRestoreBatch'> = {},
): Promise<StoreServer> {
  // First: an s3:// location that cannot be reached refuses the start before anything opens.
  const artifacts = await openArtifactStore(config);
  const storage = await openStorage({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    postgresSchema: config.postgresSchema,
    // A PostgreSQL capture holds two connections (its snapshot and the COPY reading in it):
    // room for every operation this server runs at once, so none waits on another's.
    poolSize: Math.max(10, config.operationConcurrency * 2 + 4),
  });
  // This server's own registry: servers sharing a process (tests) never share series.
  const metrics =
    config.metricsPort === null
      ? undefined
      : new StoreMetrics({
          maxScopes: config.metricsMaxScopes,
          stuckAfterMs: config.operationStuckAfterSeconds * 1000,
          logger,
        });
  // Policies compile and values validate in worker threads, each value within a budget.
  const validation = new ValidationPool({
    threads: config.validationThreads,
    timeBudgetMs: config.validationTimeBudgetMs,
    memoryBudgetMb: config.validationMemoryMb,
  });
  // The schema engine guards tree writes (policies, versions) and annotates ListTrees.
  const schema = new SchemaEngine({ storage, validation });
  const treeData = new TreeDataEngine({
    storage,
    batchWriteGuard: schema.batchWriteGuard,
    treeAnnotations: schema.treeAnnotations,
  });
  // Before the runner: the end of every operation writes its notification in the same transaction.
  const notifications = new Notifications(
    storage,
    {
      allowPrivateTargets: config.notifyAllowPrivateTargets,
      pauseAfter: config.notifyPauseAfter,
      smtp:
        config.smtpUrl && config.smtpFrom
          ? { url: config.smtpUrl, from: config.smtpFrom }
          : undefined,
      timeoutMs: config.notifyTimeoutMs,
      deliver: config.notifyDelivery,
      pollMs: config.notifyPollMs,
      stuckAfterMs: config.operationStuckAfterSeconds * 1000,
      proofMaxAgeMs: config.drillProofMaxAgeDays * 86_400_000,
      ...DEFAULT_NOTIFICATION_TIMING,
    },
    logger,
  );
  const runner = new OperationRunner({
    recordWithEnd: notifications.recordWithEnd,
    storage,
    nodeId: randomUUID(),
    leaseMs: config.operationLeaseMs,
    concurrency: config.operationConcurrency,
    tenantCaps: { previews: config.operationPreviewCap, others: config.operationTenantCap },
    previewSlots: config.operationPreviewSlots,
    logger,
    onRunEnded: metrics && ((run) => metrics.runEnded(run)),
  });
  const schemaOperations = new SchemaOperations(schema, runner);
  schemaOperations.register();
  const schemaInsight = new SchemaInsight(schema, runner);
  schemaInsight.register();
  const identity = await setUpIdentity(storage, config, logger);
  const subjects = new SubjectDirectory(identity.tokens);
  // Messages and reasons name people as the console does: a token of the tenant by its name.
  const subjectNames: SubjectNamer = async (tenant, subject) => {
    const [found] = await subjects.resolve([subject], tenant, ANONYMOUS);
    return found?.named ? found.displayName : UNNAMED_SUBJECTS(tenant, subject);
  };
  // Registers the eight backup kinds on the runner; its scheduler starts with the listeners.
  const backup = new BackupEngine({
    storage,
    artifacts,
    runner,
    schedulerMinIntervalMs: config.schedulerMinIntervalSeconds * 1000,
    healthMonitoring: config.healthMonitoring,
    logger,
    subjectNames,
    onScheduledRun: metrics && ((run) => metrics.scheduledRun(run)),
    ...seams,
  });
  // Restore previews and backup diffs (issue 16) read the backup engine's artifact store.
  const insight = new BackupComparisons({
    storage,
    artifacts: backup.artifacts,
    runner,
    limits: {
      maxRows: config.previewMaxStoredDifferences,
      maxBytes: config.previewMaxStoredBytes,
      ttlMs: config.previewDifferencesTtlSeconds * 1000,
      tenantMaxBytes: config.previewTenantMaxBytes,
    },
  });
  const schedules = new ScheduleOverview(storage, config.schedulerMinIntervalSeconds * 1000);
  const audit = new AuditTrail({
    store: new AuditStore(storage),
    // Audit targets by name: a backup id lists as the backup's name, an operation id as its kind
    // and target.
    targetNames: auditTargetNames(
      (tenant, ids) => backupNamesByIds(storage, tenant, ids),
      (tenant, ids) => operationTargetsByIds(storage, tenant, ids),
    ),
    logger,
    retentionMs: config.auditRetentionDays * 86_400_000,
    // Half the message limit: a page's framing and the rest of the response fit beside it.
    pageBytesMax: Math.min(1 << 20, Math.floor(config.maxMessageBytes / 2)),
    refusals: { limit: config.refusalLimit, windowMs: config.refusalWindowSeconds * 1000 },
    // A discarded dead letter is evidence of the discard: kept as long as its audit record.
    retainedAlongside: [
      {
        what: 'discarded dead letters',
        deleteBefore: (before) => schemaInsight.purgeDiscardedDeadLetters(before),
      },
    ],
  });
  // Retention and protections: deletions go through the catalog's chain-safe delete, each one an
  // audit record; the scope's rules run after each of its scheduled captures.
  const lifecycle = new BackupLifecycle({
    storage,
    catalog: backup.catalog,
    runner,
    logger,
    onDeleted: (event) => {
      metrics?.retentionDeletion(event);
      return audit.record(retentionDeletionRecord(event));
    },
    onStopped: (event) => audit.record(retentionStopRecord(event)),
    autoApplyMaxShare: config.retentionAutoMaxShare,
    applyAfterScheduleDefault: config.retentionApplyAfterScheduleDefault,
    subjectNames,
  });
  lifecycle.register();
  backup.onScheduledCapture((tenant, scope, capture) =>
    lifecycle.afterScheduledCapture(tenant, scope, capture),
  );
  if (identity.bootstrapTokenId) {
    // The first admin token is a credential change like the CLI's (subject "server").
    await audit.record(
      localTokenChange({
        by: 'server',
        tenant: config.bootstrapTenant,
        method: 'CreateToken',
        tokenId: identity.bootstrapTokenId,
        outcome: 'OK',
        detail: 'the first admin API token, issued at start',
      }),
      { urgent: true },
    );
  }
  const health = new HealthRegistry(STORE_SERVICES.map((s) => s.typeName));
  const { routes, interceptors } = createShippedHost(config, {
    treeData,
    // A restore's status says whether it was reverted, when and by whom (joined when read).
    operations: withRestoreReverts(runner, storage),
    verify: identity.verify,
    resultMappers: { ...SCHEMA_RESULT_MAPPERS, ...BACKUP_RESULT_MAPPERS },
    backup,
    insight,
    schedules,
    lifecycle,
    schema: { engine: schema, tracked: schemaOperations },
    schemaInsight,
    health,
    logger,
    audit,
    subjects,
    callMetrics: metrics?.calls,
    notifications,
  });
  metrics?.readFrom(new StoreReadings(storage, runner));

  const staticDir =
    config.staticDir ?? (existsSync(DEFAULT_STATIC_DIR) ? DEFAULT_STATIC_DIR : undefined);
  const serveStatic = createStaticHandler({
    root: staticDir,
    connectSources: config.oidcIssuer ? [new URL(config.oidcIssuer).origin] : [],
  });
  const fallback = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/healthz') {
      const serving = health.get('') === ServingStatus.SERVING;
      res.writeHead(serving ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: serving ? 'SERVING' : 'NOT_SERVING' }));
      return;
    }
    serveStatic(req, res);
  };

  const metricsListener = metrics && (await listenForMetricsAsConfigured(config, metrics, logger));
  const listeners = await listen({
    host: config.host,
    httpPort: config.httpPort,
    grpcPort: config.grpcPort,
    routes,
    interceptors,
    maxMessageBytes: config.maxMessageBytes,
    fallback,
    logger,
    limits: {
      maxConnections: config.maxConnections,
      handshakeTimeoutMs: config.handshakeTimeoutSeconds * 1000,
      idleTimeoutMs: config.idleTimeoutSeconds * 1000,
    },
    hostAllowed: createHostAllowlist(config.allowedHosts, config.host),
  });
  if (config.validationWarmStart) void validation.warm();
  runner.start();
  backup.start();
  audit.start();
  notifications.start();
  insight.sweeper.start((error) =>
    logger.warn({ err: error }, 'sweep of expired preview differences failed'),
  );
  identity.tokens.cacheWhileRevocationsAreWatched();
  health.setAll(ServingStatus.SERVING);
  // In the background: statistics an earlier process left stale (killed between a bulk load's
  // commit and its analyze), which nothing else would refresh with autovacuum off.
  void refreshStaleEntryStatistics(storage).then((analyzed) => {
    if (analyzed) logger.info('planner statistics of entries were stale at start; analyzed');
  });

  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  let stopping: Promise<void> | undefined;
  return {
    httpUrl: `http://${host}:${listeners.httpPort}`,
    grpcUrl: `http://${host}:${listeners.grpcPort}`,
    metricsUrl:
      metricsListener &&
      `http://${config.metricsHost === '0.0.0.0' ? '127.0.0.1' : config.metricsHost}:${metricsListener.port}`,
    storage,
    runner,
    treeData,
    schema,
    backup,
    lifecycle,
    bootstrapToken: identity.bootstrapToken,
    tokens: identity.tokens,
    audit,
    insight,
    notifications,
    stop() {
      stopping ??= (async () => {
        // Health first, so a proxy stops routing here before connections close.
        health.close();
        await backup.stop();
        insight.sweeper.stop();
        await notifications.stop();
        await Promise.all([
          metricsListener?.close(),
          listeners.close(config.shutdownGraceMs),
          runner.stop({ graceMs: config.shutdownGraceMs }),
        ]);
        await identity.tokens.close();
        // After the runner: no scan or write is left to judge a value.
        await schema.close();
        // After the listeners: the last calls' records are written before storage closes.
        await audit.close();
        await storage.close();
      })();
      return stopping;
    },
  };
}

/**
 * The metrics listener on STORE_METRICS_HOST:STORE_METRICS_PORT. A port the operator set that
 * cannot be bound stops the start; the default port taken (a second server on one machine) only
 * costs this server its metrics, with a warning.
 */
async function listenForMetricsAsConfigured(
  config: ServerConfig,
  metrics: StoreMetrics,
  logger: Logger,
): Promise<MetricsListener | undefined> {
  const port = config.metricsPort ?? DEFAULT_METRICS_PORT;
  try {
    return await listenForMetrics({
      host: config.metricsHost,
      port,
      scrape: async () => ({ contentType: metrics.contentType, body: await metrics.scrape() }),
      logger,
    });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (config.metricsPort === undefined) {
      logger.warn(
        { host: config.metricsHost, port, reason },
        'the default metrics port cannot be bound; this server exports no metrics (set STORE_METRICS_PORT)',
      );
      return undefined;
    }
    throw new ConfigError(
      `STORE_METRICS_PORT: cannot listen on ${config.metricsHost}:${port} (${reason})`,
    );
  }
}
