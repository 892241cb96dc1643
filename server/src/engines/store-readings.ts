import {
  readCatalogByTenant,
  readScopes,
  type ScopeReading,
  type TenantCatalogReading,
} from '../storage/backup/metrics-readings-store.js';
import {
  readLastProven,
  type DrillProofReading,
} from '../storage/backup/drills/drill-proof-readings-store.js';
import type { Storage } from '../storage/database.js';
import {
  readPendingDeadLetters,
  type PendingDeadLettersReading,
} from '../storage/schema/dead-letter-readings-store.js';
import type { OperationRunner } from './operations/operation-runner.js';
import type { RunningRun } from './operations/types.js';

export type { DrillProofReading, PendingDeadLettersReading, ScopeReading, TenantCatalogReading };

/**
 * What the metrics read at scrape time (docs/deployment.md, "Metrics"): aggregates of the
 * catalog, the schedules and the dead letters, and the runs of this process. Each is a bounded
 * aggregate query: a scrape never lists the catalog.
 */
export class StoreReadings {
  constructor(
    private readonly storage: Storage,
    private readonly runner: Pick<OperationRunner, 'running'>,
  ) {}

  /** The first `maxScopes` backup scopes with their newest backup and cadences; all counted. */
  scopes(maxScopes: number): Promise<{ scopes: ScopeReading[]; total: number }> {
    return readScopes(this.storage, maxScopes);
  }

  /** Per tree: when a restore drill last proved one of its backups (trees never proven: none). */
  lastProven(): Promise<DrillProofReading[]> {
    return readLastProven(this.storage);
  }

  /** Per tenant: backups by health and their bytes. */
  catalog(): Promise<TenantCatalogReading[]> {
    return readCatalogByTenant(this.storage);
  }

  /** Pending dead letters of the first `maxTrees` trees with any; those trees counted. */
  deadLetters(maxTrees: number): Promise<{ trees: PendingDeadLettersReading[]; total: number }> {
    return readPendingDeadLetters(this.storage, maxTrees);
  }

  /** The operations running in this process. */
  running(): RunningRun[] {
    return this.runner.running();
  }
}
