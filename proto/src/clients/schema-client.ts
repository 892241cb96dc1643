import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { createClient, type CallOptions, type Transport } from '@connectrpc/connect';
import type {
  StoreOperationHandle,
  StoreOperationListRequestSchema,
  StoreOperationPage,
  StoreOperationStatus,
} from '../../gen/store/api/v1/operations_pb.js';
import {
  StoreSchemaRemediationReportSchema,
  StoreSchemaVersionConfigSchema,
  type StoreSchemaCapabilities,
  type StoreSchemaComplianceReport,
  type StoreSchemaDeadLetterEntry,
  type StoreSchemaPolicy,
  type StoreSchemaPolicySchema,
  type StoreSchemaRemediationReport,
  type StoreSchemaVersionConfig,
  type StoreValueTransformSchema,
} from '../../gen/store/api/v1/schema_records_pb.js';
import type { AuthSchemeDescriptor } from '../../gen/store/schema/v1/schema_messages_pb.js';
import { SchemaControlService } from '../../gen/store/schema/v1/schema_service_pb.js';
import { refuseNull, requireId, requirePresent, requireUint32 } from '../arguments.js';

type PolicyInit = MessageInitShape<typeof StoreSchemaPolicySchema>;
type VersionConfigInit = MessageInitShape<typeof StoreSchemaVersionConfigSchema>;
type TransformInit = MessageInitShape<typeof StoreValueTransformSchema>;
type OperationListInit = MessageInitShape<typeof StoreOperationListRequestSchema>;

/**
 * Creates the typed schema client (spec 001, Endpoints). It checks arguments before sending and
 * adds no transport policy of its own.
 */
export function createSchemaClient(transport: Transport) {
  requirePresent(transport, 'transport');
  const rpc = createClient(SchemaControlService, transport);

  return {
    /** Sets the tree's policy (JSON Schema 2020-12 plus a mode). */
    async setPolicy(treeId: string, policy: PolicyInit, options?: CallOptions): Promise<void> {
      requireId(treeId, 'treeId');
      requirePresent(policy, 'policy');
      await rpc.setPolicy({ treeId, policy }, options);
    },

    /** Removes the tree's policy; false when there was none. */
    async clearPolicy(treeId: string, options?: CallOptions): Promise<boolean> {
      requireId(treeId, 'treeId');
      return (await rpc.clearPolicy({ treeId }, options)).removed;
    },

    /** The tree's policy, or null when none is stored. */
    async getPolicy(treeId: string, options?: CallOptions): Promise<StoreSchemaPolicy | null> {
      requireId(treeId, 'treeId');
      const response = await rpc.getPolicy({ treeId }, options);
      return response.found ? (response.policy ?? null) : null;
    },

    /** The tree's dead letters, oldest first, as an async sequence. */
    streamDeadLetters(
      treeId: string,
      options?: CallOptions,
    ): AsyncIterable<StoreSchemaDeadLetterEntry> {
      requireId(treeId, 'treeId');
      return rpc.streamDeadLetters({ treeId }, options);
    },

    /** How many dead letters the tree holds. */
    async countDeadLetters(treeId: string, options?: CallOptions): Promise<number> {
      requireId(treeId, 'treeId');
      return (await rpc.countDeadLetters({ treeId }, options)).count;
    },

    /**
     * Replaces the tree's version config. Spec 001: a version config is a value type, never
     * null; a null or undefined one is sent as the default config (version 0, no migrations).
     */
    async setVersionConfig(
      treeId: string,
      config: VersionConfigInit,
      options?: CallOptions,
    ): Promise<void> {
      requireId(treeId, 'treeId');
      await rpc.setVersionConfig({ treeId, config: config ?? {} }, options);
    },

    /** The tree's version config, or null when none is stored. */
    async getVersionConfig(
      treeId: string,
      options?: CallOptions,
    ): Promise<StoreSchemaVersionConfig | null> {
      requireId(treeId, 'treeId');
      const response = await rpc.getVersionConfig({ treeId }, options);
      return response.found ? (response.config ?? null) : null;
    },

    /** Raises the target version; returns the resulting config (a value type: never null). */
    async advanceTargetVersion(
      treeId: string,
      newTargetVersion: number,
      options?: CallOptions,
    ): Promise<StoreSchemaVersionConfig> {
      requireId(treeId, 'treeId');
      requireUint32(newTargetVersion, 'newTargetVersion');
      const response = await rpc.advanceTargetVersion({ treeId, newTargetVersion }, options);
      return response.config ?? create(StoreSchemaVersionConfigSchema);
    },

    /** @deprecated STORE0002: use startAdvanceAndMigrate. */
    async advanceAndMigrate(
      treeId: string,
      newTargetVersion: number,
      options?: CallOptions,
    ): Promise<StoreSchemaRemediationReport | null> {
      requireId(treeId, 'treeId');
      requireUint32(newTargetVersion, 'newTargetVersion');
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated RPC itself
      return (await rpc.advanceAndMigrate({ treeId, newTargetVersion }, options)).report ?? null;
    },

    /** @deprecated STORE0002: use startMigration. */
    async migrateToTargetVersion(
      treeId: string,
      options?: CallOptions,
    ): Promise<StoreSchemaRemediationReport | null> {
      requireId(treeId, 'treeId');
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated RPC itself
      return (await rpc.migrateToTargetVersion({ treeId }, options)).report ?? null;
    },

    /** Removes the tree's version config; false when there was none. */
    async clearVersionConfig(treeId: string, options?: CallOptions): Promise<boolean> {
      requireId(treeId, 'treeId');
      return (await rpc.clearVersionConfig({ treeId }, options)).removed;
    },

    /** @deprecated STORE0002: use startRemediation. */
    async remediate(
      treeId: string,
      transform: TransformInit,
      targetPolicy: PolicyInit,
      options?: CallOptions,
    ): Promise<StoreSchemaRemediationReport | null> {
      requireId(treeId, 'treeId');
      requirePresent(targetPolicy, 'targetPolicy');
      // A value type (spec 001): a null transform is the empty one.
      const request = { treeId, transform: transform ?? {}, targetPolicy };
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated RPC itself
      return (await rpc.remediate(request, options)).report ?? null;
    },

    /**
     * The latest remediation or migration report. Spec 001 makes the report required: a tree
     * never remediated or migrated has an empty one (state UNSPECIFIED, counts 0), never null.
     */
    async getRemediationStatus(
      treeId: string,
      options?: CallOptions,
    ): Promise<StoreSchemaRemediationReport> {
      requireId(treeId, 'treeId');
      const response = await rpc.getRemediationStatus({ treeId }, options);
      // A server of an earlier release left the report unset for such a tree.
      return response.report ?? create(StoreSchemaRemediationReportSchema, { treeId });
    },

    /** @deprecated STORE0002: use startComplianceScan. */
    async scanCompliance(
      treeId: string,
      options?: CallOptions,
    ): Promise<StoreSchemaComplianceReport | null> {
      requireId(treeId, 'treeId');
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated RPC itself
      return (await rpc.scanCompliance({ treeId }, options)).report ?? null;
    },

    /** Starts a tracked compliance scan; operationId is the tracking id. */
    startComplianceScan(
      treeId: string,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      requireId(treeId, 'treeId');
      return rpc.startComplianceScan({ treeId, operationId }, options);
    },

    /** A compliance scan's status, or null when unknown or not visible. */
    async getComplianceScanStatus(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      return (await rpc.getComplianceScanStatus({ operationId }, options)).status ?? null;
    },

    /** A page of the caller's compliance scans. */
    listComplianceScans(
      request: OperationListInit = {},
      options?: CallOptions,
    ): Promise<StoreOperationPage> {
      return rpc.listComplianceScans(refuseNull(request, 'request', {}), options);
    },

    /** Requests cancellation of a scan; null when unknown or not visible. */
    async cancelComplianceScan(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      return (await rpc.cancelComplianceScan({ operationId }, options)).status ?? null;
    },

    /** Starts a tracked remediation toward targetPolicy. */
    startRemediation(
      treeId: string,
      transform: TransformInit,
      targetPolicy: PolicyInit,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      requireId(treeId, 'treeId');
      requirePresent(targetPolicy, 'targetPolicy');
      // A value type (spec 001): a null transform is the empty one.
      const request = { treeId, transform: transform ?? {}, targetPolicy, operationId };
      return rpc.startRemediation(request, options);
    },

    /** Starts a tracked migration of the tree to its target version. */
    startMigration(
      treeId: string,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      requireId(treeId, 'treeId');
      return rpc.startMigration({ treeId, operationId }, options);
    },

    /** Raises the target version and starts a tracked migration to it. */
    startAdvanceAndMigrate(
      treeId: string,
      newTargetVersion: number,
      operationId?: string,
      options?: CallOptions,
    ): Promise<StoreOperationHandle> {
      requireId(treeId, 'treeId');
      requireUint32(newTargetVersion, 'newTargetVersion');
      return rpc.startAdvanceAndMigrate({ treeId, newTargetVersion, operationId }, options);
    },

    /** A schema operation's status, or null when unknown or not visible. */
    async getSchemaOperationStatus(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      return (await rpc.getSchemaOperationStatus({ operationId }, options)).status ?? null;
    },

    /** A page of the caller's schema operations. */
    listSchemaOperations(
      request: OperationListInit = {},
      options?: CallOptions,
    ): Promise<StoreOperationPage> {
      return rpc.listSchemaOperations(refuseNull(request, 'request', {}), options);
    },

    /** Requests cancellation; null when unknown or not visible. */
    async cancelSchemaOperation(
      operationId: string,
      options?: CallOptions,
    ): Promise<StoreOperationStatus | null> {
      requireId(operationId, 'operationId');
      return (await rpc.cancelSchemaOperation({ operationId }, options)).status ?? null;
    },

    /** The caller's allowed operations on the tree. No side effects. */
    probeCapabilities(treeId: string, options?: CallOptions): Promise<StoreSchemaCapabilities> {
      requireId(treeId, 'treeId');
      return rpc.probeCapabilities({ treeId }, options);
    },

    /** The advertised authentication schemes; callable without a credential. */
    async getAuthScheme(options?: CallOptions): Promise<AuthSchemeDescriptor[]> {
      return (await rpc.getAuthScheme({}, options)).schemes;
    },
  };
}

/** The typed schema client. */
export type SchemaClient = ReturnType<typeof createSchemaClient>;
