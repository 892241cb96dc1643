import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely's migrator asks of the database (does our schema exist, which tables does it hold),
 * answered from our schema alone. Kysely's own PostgreSQL introspector lists every table of the
 * database through catalog functions that fail ("schema … does not exist") when another session
 * drops a schema meanwhile: on a database shared with other applications, or other deployments'
 * replicas starting and stopping, a start could fail for what someone else did. Column details
 * are not read: the migrator needs names only.
 */
class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`
      select nspname as name from pg_catalog.pg_namespace
      where nspname = coalesce(${this.schema ?? null}::text, current_schema())`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; isView: boolean }>`
      select c.relname as name, n.nspname as schema, c.relkind in ('v', 'm') as "isView"
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = coalesce(${this.schema ?? null}::text, current_schema())
        and c.relkind in ('r', 'p', 'v', 'm')`.execute(this.db);
    return rows.map((row) => ({ ...row, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL with the introspection above, for the schema the server uses. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string | undefined,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db, this.schema);
  }
}
