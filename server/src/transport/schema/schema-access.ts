import { StoreSchemaApiOperation as SchemaOp } from '@store/contract';
import { none, treeId, type GuardedService, type MethodAccess } from '../auth/method-access.js';
import type { Role } from '../../engines/identity/principal.js';

const schemaTree = (operation: SchemaOp): MethodAccess => ({ operation, targetId: treeId });
const schemaOps = (operation: SchemaOp): MethodAccess => ({ operation, targetId: none });
const changes = (access: MethodAccess): MethodAccess => ({ ...access, changesState: true });

/** Spec 001: every tree RPC's target is the tree id as sent; operation RPCs have none. */
const SCHEMA: Record<string, MethodAccess> = {
  SetPolicy: changes(schemaTree(SchemaOp.SET_POLICY)),
  ClearPolicy: changes(schemaTree(SchemaOp.CLEAR_POLICY)),
  GetPolicy: schemaTree(SchemaOp.GET_POLICY),
  StreamDeadLetters: schemaTree(SchemaOp.STREAM_DEAD_LETTERS),
  CountDeadLetters: schemaTree(SchemaOp.COUNT_DEAD_LETTERS),
  SetVersionConfig: changes(schemaTree(SchemaOp.SET_VERSION_CONFIG)),
  GetVersionConfig: schemaTree(SchemaOp.GET_VERSION_CONFIG),
  AdvanceTargetVersion: changes(schemaTree(SchemaOp.ADVANCE_TARGET_VERSION)),
  AdvanceAndMigrate: changes(schemaTree(SchemaOp.ADVANCE_AND_MIGRATE)),
  MigrateToTargetVersion: changes(schemaTree(SchemaOp.MIGRATE_TO_TARGET_VERSION)),
  ClearVersionConfig: changes(schemaTree(SchemaOp.CLEAR_VERSION_CONFIG)),
  Remediate: changes(schemaTree(SchemaOp.REMEDIATE)),
  GetRemediationStatus: schemaTree(SchemaOp.GET_REMEDIATION_STATUS),
  ScanCompliance: changes(schemaTree(SchemaOp.SCAN_COMPLIANCE)),
  ProbeCapabilities: schemaTree(SchemaOp.PROBE_CAPABILITIES),
  StartComplianceScan: changes(schemaTree(SchemaOp.START_COMPLIANCE_SCAN)),
  GetComplianceScanStatus: schemaOps(SchemaOp.GET_COMPLIANCE_SCAN_STATUS),
  ListComplianceScans: schemaOps(SchemaOp.LIST_COMPLIANCE_SCANS),
  CancelComplianceScan: changes(schemaOps(SchemaOp.CANCEL_COMPLIANCE_SCAN)),
  StartRemediation: changes(schemaTree(SchemaOp.START_REMEDIATION)),
  StartMigration: changes(schemaTree(SchemaOp.START_MIGRATION)),
  StartAdvanceAndMigrate: changes(schemaTree(SchemaOp.START_ADVANCE_AND_MIGRATE)),
  GetSchemaOperationStatus: schemaOps(SchemaOp.GET_SCHEMA_OPERATION_STATUS),
  ListSchemaOperations: schemaOps(SchemaOp.LIST_SCHEMA_OPERATIONS),
  CancelSchemaOperation: changes(schemaOps(SchemaOp.CANCEL_SCHEMA_OPERATION)),
};

export const SCHEMA_SERVICE: GuardedService = {
  prefix: 'store.schema.',
  methods: SCHEMA,
  unknownOperation: SchemaOp.UNKNOWN,
  exempt: ['GetAuthScheme'],
};

/** DESIGN.md §4: the least role of each operation under rbac (auth/authorizers.ts). */
export const SCHEMA_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [SchemaOp.GET_POLICY, 'viewer'],
  [SchemaOp.STREAM_DEAD_LETTERS, 'viewer'],
  [SchemaOp.COUNT_DEAD_LETTERS, 'viewer'],
  [SchemaOp.GET_VERSION_CONFIG, 'viewer'],
  [SchemaOp.GET_REMEDIATION_STATUS, 'viewer'],
  [SchemaOp.GET_COMPLIANCE_SCAN_STATUS, 'viewer'],
  [SchemaOp.LIST_COMPLIANCE_SCANS, 'viewer'],
  [SchemaOp.GET_SCHEMA_OPERATION_STATUS, 'viewer'],
  [SchemaOp.LIST_SCHEMA_OPERATIONS, 'viewer'],
  [SchemaOp.PROBE_CAPABILITIES, 'viewer'],
  [SchemaOp.SCAN_COMPLIANCE, 'operator'],
  [SchemaOp.START_COMPLIANCE_SCAN, 'operator'],
  [SchemaOp.CANCEL_COMPLIANCE_SCAN, 'operator'],
  [SchemaOp.CANCEL_SCHEMA_OPERATION, 'operator'],
  [SchemaOp.SET_POLICY, 'admin'],
  [SchemaOp.CLEAR_POLICY, 'admin'],
  [SchemaOp.SET_VERSION_CONFIG, 'admin'],
  [SchemaOp.ADVANCE_TARGET_VERSION, 'admin'],
  [SchemaOp.CLEAR_VERSION_CONFIG, 'admin'],
  [SchemaOp.ADVANCE_AND_MIGRATE, 'admin'],
  [SchemaOp.MIGRATE_TO_TARGET_VERSION, 'admin'],
  [SchemaOp.START_MIGRATION, 'admin'],
  [SchemaOp.START_ADVANCE_AND_MIGRATE, 'admin'],
  [SchemaOp.REMEDIATE, 'admin'],
  [SchemaOp.START_REMEDIATION, 'admin'],
]);
