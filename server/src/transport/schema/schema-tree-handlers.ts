import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { SchemaControlService, StoreSchemaApiOperation } from '@store/contract';
import { validateTreeName } from '../../engines/data/tree-names.js';
import { inlineControl } from '../../engines/schema/records.js';
import type { SchemaEngine } from '../../engines/schema/schema-engine.js';
import {
  migrateTree,
  remediateTree,
  scanTree,
  type RemediationInput,
} from '../../engines/schema/schema-runs.js';
import { advanceForMigration } from '../../engines/schema/schema-tracked.js';
import { permittedOperationsOf } from '../auth/permitted-operations.js';
import { callScopeOf } from '../call-scope.js';
import {
  complianceReportToProto,
  DEFAULT_VERSION_CONFIG,
  deadLetterToProto,
  emptyRemediationReport,
  policyFromProto,
  policyToProto,
  remediationReportToProto,
  transformFromProto,
  versionConfigFromProto,
  versionConfigToProto,
} from './schema-mapping.js';

type Impl = Partial<ServiceImpl<typeof SchemaControlService>>;

/** The remediation input of a Remediate or StartRemediation request. */
export function remediationInputOf(request: {
  transform?: Parameters<typeof transformFromProto>[0];
  targetPolicy?: Parameters<typeof policyFromProto>[0];
}): RemediationInput {
  return {
    transform: transformFromProto(request.transform),
    targetPolicy: policyFromProto(request.targetPolicy, 'target_policy'),
  };
}

function scopeOf(context: HandlerContext) {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject };
}

/**
 * The per-tree RPCs of SchemaControlService. The deprecated blocking RPCs run the same engine
 * code as the tracked ones, inline in the call (no operation record; the report has no id).
 */
export function schemaTreeHandlers(engine: SchemaEngine): Impl {
  return {
    async setPolicy(request, context) {
      const { tenant, createdBy } = scopeOf(context);
      await engine.setPolicy(
        tenant,
        request.treeId,
        policyFromProto(request.policy, 'policy'),
        createdBy,
      );
      return {};
    },
    async clearPolicy(request, context) {
      const { tenant } = scopeOf(context);
      return { removed: await engine.clearPolicy(tenant, request.treeId) };
    },
    async getPolicy(request, context) {
      const { tenant } = scopeOf(context);
      const policy = await engine.getPolicy(tenant, request.treeId);
      return policy ? { found: true, policy: policyToProto(policy) } : { found: false };
    },
    async *streamDeadLetters(request, context) {
      const { tenant } = scopeOf(context);
      for await (const letter of engine.streamDeadLetters(tenant, request.treeId)) {
        if (context.signal.aborted) return;
        yield deadLetterToProto(letter);
      }
    },
    async countDeadLetters(request, context) {
      const { tenant } = scopeOf(context);
      return { count: await engine.countDeadLetters(tenant, request.treeId) };
    },
    async setVersionConfig(request, context) {
      const { tenant } = scopeOf(context);
      const config = versionConfigFromProto(request.config);
      await engine.setVersionConfig(tenant, request.treeId, config);
      return {};
    },
    async getVersionConfig(request, context) {
      const { tenant } = scopeOf(context);
      const config = await engine.getVersionConfig(tenant, request.treeId);
      // Spec 001: Config is a value type, never null: the default one when nothing is stored.
      return {
        found: config !== undefined,
        config: versionConfigToProto(config ?? DEFAULT_VERSION_CONFIG),
      };
    },
    async advanceTargetVersion(request, context) {
      const { tenant } = scopeOf(context);
      const config = await engine.advanceTargetVersion(
        tenant,
        request.treeId,
        request.newTargetVersion,
      );
      return { config: versionConfigToProto(config) };
    },
    async clearVersionConfig(request, context) {
      const { tenant } = scopeOf(context);
      return { removed: await engine.clearVersionConfig(tenant, request.treeId) };
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the deprecated RPC
    async advanceAndMigrate(request, context) {
      const { tenant, createdBy } = scopeOf(context);
      await advanceForMigration(engine, tenant, request.treeId, request.newTargetVersion);
      const report = await migrateTree(
        engine,
        { tenant, treeName: request.treeId, kind: 'ADVANCE_AND_MIGRATE' },
        inlineControl(createdBy),
      );
      return { report: remediationReportToProto(report) };
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the deprecated RPC
    async migrateToTargetVersion(request, context) {
      const { tenant, createdBy } = scopeOf(context);
      const report = await migrateTree(
        engine,
        { tenant, treeName: request.treeId, kind: 'MIGRATION' },
        inlineControl(createdBy),
      );
      return { report: remediationReportToProto(report) };
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the deprecated RPC
    async remediate(request, context) {
      const { tenant, createdBy } = scopeOf(context);
      const report = await remediateTree(
        engine,
        { tenant, treeName: request.treeId },
        remediationInputOf(request),
        inlineControl(createdBy),
      );
      return { report: remediationReportToProto(report) };
    },
    async getRemediationStatus(request, context) {
      const { tenant } = scopeOf(context);
      const report = await engine.getRemediationStatus(tenant, request.treeId);
      return {
        report: report ? remediationReportToProto(report) : emptyRemediationReport(request.treeId),
      };
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the deprecated RPC
    async scanCompliance(request, context) {
      const { tenant, createdBy } = scopeOf(context);
      const report = await scanTree(
        engine,
        { tenant, treeName: request.treeId },
        inlineControl(createdBy),
      );
      return { report: complianceReportToProto(report) };
    },
    async probeCapabilities(request, context) {
      const treeId = validateTreeName(request.treeId, 'tree_id');
      // The configured authorizer answers for each operation, as it would on the real call.
      const allowed = await permittedOperationsOf(context)(treeId);
      return { treeId, allowedOperations: allowed as StoreSchemaApiOperation[] };
    },
  };
}
