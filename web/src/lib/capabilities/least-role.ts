import {
  StoreBackupApiOperation as Backup,
  StoreSchemaApiOperation as Schema,
} from '@store/contract';
import type { Role } from '../identity/role-reason';

/**
 * The least role each operation needs under the rbac authorizer (DESIGN.md §4, the server's
 * LEAST_ROLE in server/src/transport/auth/authorizers.ts); an operation not listed needs viewer.
 * Only to say which role a disabled control needs: what is allowed comes from the probe.
 */
export const BACKUP_LEAST_ROLE: ReadonlyMap<Backup, Role> = new Map<Backup, Role>([
  [Backup.CREATE_BACKUP, 'operator'],
  [Backup.CREATE_INCREMENTAL_BACKUP, 'operator'],
  [Backup.CREATE_BACKUP_SET, 'operator'],
  [Backup.START_BACKUP, 'operator'],
  [Backup.START_INCREMENTAL_BACKUP, 'operator'],
  [Backup.START_BACKUP_SET, 'operator'],
  [Backup.SCHEDULE_BACKUP, 'operator'],
  [Backup.CANCEL_SCHEDULE, 'operator'],
  [Backup.CHECK_BACKUP_HEALTH, 'operator'],
  [Backup.START_BACKUP_HEALTH_CHECK, 'operator'],
  [Backup.CONFIGURE_BACKUP_HEALTH, 'operator'],
  [Backup.EXPORT_ARTIFACT, 'operator'],
  [Backup.START_CATALOG_REBUILD, 'operator'],
  [Backup.CANCEL_BACKUP_OPERATION, 'operator'],
  [Backup.DELETE_BACKUP, 'admin'],
  [Backup.RESTORE_BACKUP, 'admin'],
  [Backup.START_RESTORE, 'admin'],
  [Backup.START_COLD_RESTORE, 'admin'],
  [Backup.REVERT_RESTORE, 'admin'],
  [Backup.START_CATALOG_SCRUB, 'admin'],
]);

export const SCHEMA_LEAST_ROLE: ReadonlyMap<Schema, Role> = new Map<Schema, Role>([
  [Schema.SCAN_COMPLIANCE, 'operator'],
  [Schema.START_COMPLIANCE_SCAN, 'operator'],
  [Schema.CANCEL_COMPLIANCE_SCAN, 'operator'],
  [Schema.CANCEL_SCHEMA_OPERATION, 'operator'],
  [Schema.SET_POLICY, 'admin'],
  [Schema.CLEAR_POLICY, 'admin'],
  [Schema.SET_VERSION_CONFIG, 'admin'],
  [Schema.ADVANCE_TARGET_VERSION, 'admin'],
  [Schema.CLEAR_VERSION_CONFIG, 'admin'],
  [Schema.ADVANCE_AND_MIGRATE, 'admin'],
  [Schema.MIGRATE_TO_TARGET_VERSION, 'admin'],
  [Schema.START_MIGRATION, 'admin'],
  [Schema.START_ADVANCE_AND_MIGRATE, 'admin'],
  [Schema.REMEDIATE, 'admin'],
  [Schema.START_REMEDIATION, 'admin'],
]);
