import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** Column helpers that pick the right type on PostgreSQL and SQLite, so one migration serves both. */
export function columns(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.options.type === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'datetime';
  // What TypeORM itself writes for a CreateDateColumn, so that migrated and entity schemas match to the letter.
  const now = postgres ? 'now()' : "datetime('now')";
  return {
    id: (): TableColumnOptions => ({
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
    /** A boolean with a default, written the way TypeORM writes it for an entity (SQLite stores 1 and 0). */
    boolean: (name: string, value: boolean): TableColumnOptions => ({
      name,
      type: 'boolean',
      default: postgres ? value : Number(value),
    }),
    timestamps: (): TableColumnOptions[] => [
      { name: 'created_at', type: timestamp, default: now },
      { name: 'updated_at', type: timestamp, default: now },
    ],
  };
}
