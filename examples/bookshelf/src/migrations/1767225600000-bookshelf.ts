import type { MigrationInterface, QueryRunner } from 'typeorm';
import { countChangesOf, stopCountingChangesOf } from '@file-fields/nest';

/**
 * The tables of the two types, as TypeORM's generator writes them for SQLite (`typeorm migration:generate`), and the
 * counting of their changes, which the package's kept reads need (it refuses to start without).
 */
export class Bookshelf1767225600000 implements MigrationInterface {
  name = 'Bookshelf1767225600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "authors" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(200) NOT NULL, "created_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE TABLE "books" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar(300) NOT NULL, "year" integer, "created_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await countChangesOf(queryRunner, ['authors', 'books']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await stopCountingChangesOf(queryRunner, ['authors', 'books']);
    await queryRunner.query(`DROP TABLE "books"`);
    await queryRunner.query(`DROP TABLE "authors"`);
  }
}
