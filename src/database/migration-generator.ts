import { DataSource, type DataSourceOptions } from 'typeorm';
import { getCollectionPath, uncountedOf } from '@file-fields/nest';

/** One statement of a migration, with its parameters when it has any. */
interface MigrationStatement {
  query: string;
  parameters?: unknown[];
}

/** What one dialect runs to apply a migration, and to undo it. */
export interface DialectStatements {
  up: MigrationStatement[];
  down: MigrationStatement[];
  /** Tables of served types whose changes are not counted yet (their kept reads need it: countChangesOf). */
  count: string[];
}

/** A migration's statements for each dialect the service runs on; PostgreSQL's only when one was reachable. */
export interface GeneratedStatements {
  sqlite: DialectStatements;
  postgres?: DialectStatements;
}

/**
 * TypeORM's generator at work (the schema builder's log, what `typeorm migration:generate` writes): the statements
 * that bring a database, once every migration has run on it, to what the entities declare; and the tables of types
 * served at a collection path that are not counted yet. Empty when the migrations already do everything.
 */
export async function pendingStatements(options: DataSourceOptions): Promise<DialectStatements> {
  const dataSource = await new DataSource(options).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const { upQueries, downQueries } = await dataSource.driver.createSchemaBuilder().log();
    const statement = ({ query, parameters }: MigrationStatement) => ({
      query,
      ...(parameters && parameters.length > 0 ? { parameters } : {}),
    });
    const served = dataSource.entityMetadatas
      .filter((entity) => typeof entity.target === 'function' && getCollectionPath(entity.target) !== undefined)
      .map((entity) => entity.tableName);
    const count = await uncountedOf(dataSource, served);
    return { up: upQueries.map(statement), down: downQueries.map(statement), count };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The source of a migration class named `name` (a name ending in its 13-digit timestamp, which orders migrations)
 * that runs the statements of the dialect it runs on, then counts the changes of the served tables that need it. It
 * imports nothing but TypeORM's types and the counting functions: a migration stays as it was written, whatever the
 * entities become.
 */
export function migrationSource(name: string, statements: GeneratedStatements): string {
  const dialect = (label: string, found: DialectStatements | undefined) => {
    const written = found ? { up: found.up, down: found.down } : undefined;
    return `const ${label}: Statements | undefined = ${written ? JSON.stringify(written, null, 2) : 'undefined'};`;
  };
  const count = statements.sqlite.count;
  const counting = count.length > 0;
  const tables = JSON.stringify(count);
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';
${counting ? "import { countChangesOf, stopCountingChangesOf } from '@file-fields/nest';\n" : ''}
type Statements = Record<'up' | 'down', Array<{ query: string; parameters?: unknown[] }>>;

// Written by \`npm run migration:generate\` from the entities: the statements of each database the service runs on.
${dialect('SQLITE', statements.sqlite)}
${dialect('POSTGRES', statements.postgres)}

export class ${name} implements MigrationInterface {
  name = '${name}';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { query, parameters } of statementsFor(queryRunner).up) await queryRunner.query(query, parameters);${
      counting
        ? `
    // Kept answers of these tables' routes end when their data changes: count their changes.
    await countChangesOf(queryRunner, ${tables});`
        : ''
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {${
    counting
      ? `
    await stopCountingChangesOf(queryRunner, ${tables});`
      : ''
  }
    for (const { query, parameters } of statementsFor(queryRunner).down) await queryRunner.query(query, parameters);
  }
}

function statementsFor(queryRunner: QueryRunner): Statements {
  const postgres = queryRunner.connection.options.type === 'postgres';
  const statements = postgres ? POSTGRES : SQLITE;
  if (!statements) {
    throw new Error('${name} was generated without PostgreSQL: generate it again with DATABASE_URL set to one.');
  }
  return statements;
}
`;
}
