import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** Column helpers that pick the right type on PostgreSQL and SQLite, so one migration serves both. */
export function columns(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.options.type === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'datetime';
  const now = postgres ? 'now()' : "(datetime('now'))";
  return {
    id: (): TableColumnOptions => ({
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
    timestamps: (): TableColumnOptions[] => [
      { name: 'created_at', type: timestamp, default: now },
      { name: 'updated_at', type: timestamp, default: now },
    ],
  };
}
