import { getOption, hasOption, type DescFile, type DescMessage } from '@bufbuild/protobuf';
import { alias } from '../gen/store/api/v1/alias_pb.js';
import { file_store_api_v1_api_operations } from '../gen/store/api/v1/api_operations_pb.js';
import { file_store_api_v1_backup_records } from '../gen/store/api/v1/backup_records_pb.js';
import { file_store_api_v1_operations } from '../gen/store/api/v1/operations_pb.js';
import { file_store_api_v1_schema_records } from '../gen/store/api/v1/schema_records_pb.js';
import { file_store_backup_v1_backup_messages } from '../gen/store/backup/v1/backup_messages_pb.js';
import { file_store_backup_v1_backup_service } from '../gen/store/backup/v1/backup_service_pb.js';
import { file_store_data_v1_data } from '../gen/store/data/v1/data_pb.js';
import { file_store_drills_v1_drill_plans } from '../gen/store/drills/v1/drill_plans_pb.js';
import { file_store_drills_v1_drill_proofs } from '../gen/store/drills/v1/drill_proofs_pb.js';
import { file_store_drills_v1_restore_drills } from '../gen/store/drills/v1/restore_drills_pb.js';
import { file_store_identity_v1_identity } from '../gen/store/identity/v1/identity_pb.js';
import { file_store_insight_v1_backup_insight } from '../gen/store/insight/v1/backup_insight_pb.js';
import { file_store_lifecycle_v1_backup_lifecycle } from '../gen/store/lifecycle/v1/backup_lifecycle_pb.js';
import { file_store_schema_v1_schema_messages } from '../gen/store/schema/v1/schema_messages_pb.js';
import { file_store_schema_v1_schema_service } from '../gen/store/schema/v1/schema_service_pb.js';

/** Alias prefixes of the record families (spec 000/001, Versioning; DESIGN.md §2). */
export const AliasPrefix = {
  /** Backup binding records. */
  backupBinding: 'oibg.',
  /** Schema binding records. */
  schemaBinding: 'oisg.',
  /** Shared facade records: operations, capabilities, backup facade types. */
  shared: 'ois.',
  /** Schema-engine records: policy, version config, transform, reports, dead letters. */
  schemaEngine: 'ols.',
  /** Tree data records (not in the specs). */
  data: 'oid.',
  /** Identity records (not in the specs). */
  identity: 'oii.',
  /** Insight records (store.insight.v1: previews, diffs; not in the specs). */
  insight: 'oin.',
  /** Backup lifecycle records (store.lifecycle.v1: retention, protections; not in the specs). */
  lifecycle: 'olc.',
  /** Restore drill records (store.drills.v1; not in the specs). */
  drills: 'odr.',
} as const;

/** Every file of the contract that declares wire records. */
export const contractFiles: readonly DescFile[] = [
  file_store_api_v1_api_operations,
  file_store_api_v1_backup_records,
  file_store_api_v1_schema_records,
  file_store_api_v1_operations,
  file_store_backup_v1_backup_messages,
  file_store_schema_v1_schema_messages,
  file_store_data_v1_data,
  file_store_identity_v1_identity,
  file_store_insight_v1_backup_insight,
  file_store_lifecycle_v1_backup_lifecycle,
  file_store_drills_v1_restore_drills,
  file_store_drills_v1_drill_plans,
  file_store_drills_v1_drill_proofs,
];

/** Every wire record of the contract, nested ones included. */
export function allWireRecords(): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (message: DescMessage) => {
    out.push(message);
    message.nestedMessages.forEach(visit);
  };
  for (const file of contractFiles) file.messages.forEach(visit);
  return out;
}

/** The alias a record carries, or undefined when it has none. */
export function aliasOf(message: DescMessage): string | undefined {
  return hasOption(message, alias) ? getOption(message, alias) : undefined;
}

type AliasTable<P extends string> = Readonly<Record<string, string>> & { readonly AliasPrefix: P };

function aliasTableOf<P extends string>(prefix: P, files: readonly DescFile[]): AliasTable<P> {
  const table: Record<string, string> = { AliasPrefix: prefix };
  const seen = new Set<DescMessage>();
  const visit = (message: DescMessage) => {
    if (seen.has(message)) return;
    seen.add(message);
    const value = aliasOf(message);
    if (value !== undefined) table[message.name] = value;
    for (const field of message.fields) if (field.message) visit(field.message);
  };
  for (const file of files) {
    file.messages.forEach(visit);
    for (const service of file.services) {
      for (const method of service.methods) {
        visit(method.input);
        visit(method.output);
      }
    }
  }
  return Object.freeze(table) as AliasTable<P>;
}

/**
 * Aliases of every record the backup binding carries, one constant per record named after it
 * (spec 000, Versioning), read from the descriptors so they cannot drift from the contract.
 */
export const GrpcBackupTypeAliases = aliasTableOf(AliasPrefix.backupBinding, [
  file_store_backup_v1_backup_messages,
  file_store_backup_v1_backup_service,
]);

/** Aliases of every record the schema binding carries (spec 001, Versioning). */
export const GrpcSchemaTypeAliases = aliasTableOf(AliasPrefix.schemaBinding, [
  file_store_schema_v1_schema_messages,
  file_store_schema_v1_schema_service,
]);
