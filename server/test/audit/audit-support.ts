import type { Code } from '@connectrpc/connect';
import { ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { IdentityService, type AuditRecord } from '@store/contract';
import type { TestServer } from '../support/test-server.js';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The methods that change state, transcribed from issue 18 (start/cancel/delete/restore/revert/
 * schedule/policy/version/remediate, data writes) independently of the server's own table.
 */
export const STATE_CHANGING: Record<string, readonly string[]> = {
  BackupControlService: [
    'CreateBackup',
    'CreateIncrementalBackup',
    'CreateBackupSet',
    'DeleteBackup',
    'RestoreBackup',
    'RevertRestore',
    'ScheduleBackup',
    'CancelSchedule',
    'CheckBackupHealth',
    'ConfigureBackupHealth',
    'StartBackup',
    'StartIncrementalBackup',
    'StartBackupSet',
    'StartRestore',
    'StartColdRestore',
    'CancelBackupOperation',
    'StartBackupHealthCheck',
    'StartCatalogRebuild',
    'StartCatalogScrub',
  ],
  SchemaControlService: [
    'SetPolicy',
    'ClearPolicy',
    'SetVersionConfig',
    'AdvanceTargetVersion',
    'AdvanceAndMigrate',
    'MigrateToTargetVersion',
    'ClearVersionConfig',
    'Remediate',
    'ScanCompliance',
    'StartComplianceScan',
    'CancelComplianceScan',
    'StartRemediation',
    'StartMigration',
    'StartAdvanceAndMigrate',
    'CancelSchemaOperation',
  ],
  TreeDataService: ['PutEntry', 'PutEntries', 'DeleteEntry'],
  IdentityService: [],
};

/** The code a failed call ended with, or 'ok'. */
export async function codeOf(call: Promise<unknown>): Promise<Code | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

/** The audit client of a caller, with extra headers on every call. */
export function auditClient(transport: Transport, headers: Record<string, string>) {
  const client = createClient(IdentityService, transport);
  return {
    list: (request: Parameters<typeof client.listAuditRecords>[0] = {}) =>
      client.listAuditRecords(request, { headers }),
    /** Every record the caller may see, following next_page_token. */
    async all(
      request: Parameters<typeof client.listAuditRecords>[0] = {},
      pageSize = 1000,
    ): Promise<AuditRecord[]> {
      const records: AuditRecord[] = [];
      let pageToken = '';
      do {
        const page = await client.listAuditRecords(
          { ...request, pageSize, pageToken },
          { headers },
        );
        records.push(...page.records);
        pageToken = page.nextPageToken;
      } while (pageToken !== '');
      return records;
    },
  };
}

/** Issues a token of one role in a tenant; returns it with the subject the server will name. */
export async function issue(t: TestServer, tenant: string, role: 'viewer' | 'operator' | 'admin') {
  const { token, info } = await t.server.tokens.issue({ tenant, roles: [role] });
  return { token, subject: `token:${info.id}` };
}
