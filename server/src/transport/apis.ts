import type { TreeDataEngine } from '../engines/data/tree-data-engine.js';
import { registerBackupService, type BackupBindingFacades } from './backup/backup-service.js';
import { registerTreeDataService } from './data/data-service.js';
import { registerIdentityService, type AuditListing } from './identity/identity-service.js';
import type { SubjectDirectory } from '../engines/identity/subject-names.js';
import { registerSchemaService, type SchemaBindingFacades } from './schema/schema-service.js';
import {
  BACKUP_SERVICE,
  DATA_SERVICE,
  IDENTITY_SERVICE,
  SCHEMA_SERVICE,
  addGuardedApi,
  type StoreApiHost,
  type StoreApiSetup,
} from './store-api-host.js';

type Facades<T> = Omit<T, 'schemes'>;

/**
 * Adds the backup control API (spec 000, Host setup): routes, the interceptor on
 * `store.backup.`, a default-deny authorizer, the header bridge and the options-backed scheme
 * source. Without `operations` the eleven tracked RPCs answer Unimplemented.
 */
export function addStoreBackupApi(
  host: StoreApiHost,
  facades: Facades<BackupBindingFacades>,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  // Routes are built when the listeners start, after configure ran: read the schemes then.
  const setup: StoreApiSetup = addGuardedApi(
    host,
    BACKUP_SERVICE,
    (router) =>
      registerBackupService(router, {
        ...facades,
        schemes: () => setup.options.advertisedAuthSchemes,
      }),
    configure,
  );
  return setup;
}

/**
 * Adds the schema control API (spec 001, Host setup). Without `complianceOperations` the four
 * compliance-scan RPCs answer Unimplemented.
 */
export function addStoreSchemaApi(
  host: StoreApiHost,
  facades: Facades<SchemaBindingFacades>,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  const setup: StoreApiSetup = addGuardedApi(
    host,
    SCHEMA_SERVICE,
    (router) =>
      registerSchemaService(router, {
        ...facades,
        schemes: () => setup.options.advertisedAuthSchemes,
      }),
    configure,
  );
  return setup;
}

/** Adds TreeDataService with the same interceptor and gate. */
export function addStoreDataApi(
  host: StoreApiHost,
  engine: TreeDataEngine,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    DATA_SERVICE,
    (router) => registerTreeDataService(router, engine),
    configure,
  );
}

/**
 * Adds IdentityService (WhoAmI; ListAuditRecords when the host keeps an audit trail;
 * ResolveSubjects with a subject directory) with the same interceptor and gate.
 */
export function addStoreIdentityApi(
  host: StoreApiHost,
  configure?: (setup: StoreApiSetup) => void,
  audit?: AuditListing,
  subjects?: SubjectDirectory,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    IDENTITY_SERVICE,
    (router) => registerIdentityService(router, audit, subjects),
    configure,
  );
}
