import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Kysely's SQLite dialect with transactions opened by `BEGIN IMMEDIATE`. A deferred `BEGIN`
 * (Kysely's default) takes the write lock only at its first write; when another process (the
 * token CLI, a test, a server started twice by mistake) committed in between, SQLite cannot
 * upgrade the transaction's read snapshot and answers SQLITE_BUSY ("database is locked") at once,
 * without waiting for busy_timeout. Taking the lock at BEGIN makes the wait apply. The server's
 * own transactions run one at a time on its single connection anyway, so none waits longer;
 * long reads that must not hold the lock use a read-only connection (backup-snapshot.ts).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  private readonly driverConfig: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.driverConfig = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
