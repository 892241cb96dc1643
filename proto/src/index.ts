export { STORE_BINDING_VERSION } from './version.js';
export { ArgumentError } from './arguments.js';
export { durationFromMs, durationToMs } from './durations.js';
export {
  AliasPrefix,
  GrpcBackupTypeAliases,
  GrpcSchemaTypeAliases,
  aliasOf,
  allWireRecords,
} from './aliases.js';
export {
  createBackupClient,
  type BackupClient,
  type HealthMonitoringConfig,
} from './clients/backup-client.js';
export { createSchemaClient, type SchemaClient } from './clients/schema-client.js';
export {
  IMPORT_LINE_SHAPE_NAMES,
  readImportLine,
  type ImportLine,
  type ImportLineShape,
} from './import-lines.js';

export * from '../gen/store/api/v1/api_operations_pb.js';
export * from '../gen/store/api/v1/operation_enums_pb.js';
export * from '../gen/store/api/v1/backup_records_pb.js';
export * from '../gen/store/api/v1/schema_records_pb.js';
export * from '../gen/store/api/v1/operations_pb.js';
export * from '../gen/store/data/v1/data_pb.js';
export * from '../gen/store/identity/v1/identity_pb.js';
export * from '../gen/store/insight/v1/backup_insight_pb.js';
export * from '../gen/store/lifecycle/v1/backup_lifecycle_pb.js';
export * from '../gen/store/drills/v1/restore_drills_pb.js';
export * from '../gen/store/drills/v1/drill_plans_pb.js';
export * from '../gen/store/drills/v1/drill_proofs_pb.js';
export * from '../gen/store/backup/v1/backup_service_pb.js';
export * from '../gen/store/schema/v1/schema_service_pb.js';
export * as backupV1 from '../gen/store/backup/v1/backup_messages_pb.js';
export * as schemaV1 from '../gen/store/schema/v1/schema_messages_pb.js';
