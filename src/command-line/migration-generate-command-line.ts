import { basename, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { type CommandLineExit, readCommandLine, UsageError } from './command-line.js';

const USAGE = `Usage: npm run migration:generate -- <directory>/<Name>

Writes <directory>/<timestamp>-<name>.ts: a migration with the statements that bring a database, once every existing
migration has run on it, to what the entities declare (TypeORM's generator), for SQLite and, when DATABASE_URL names
one, for PostgreSQL. Adds it to <directory>/index.ts when there is one. Writes nothing when there is nothing to do.

Example: npm run migration:generate -- src/catalog/migrations/AddAuthors

Options:
  -h, --help    Shows this text.`;

/** Where the migration goes and what its class is called (before its timestamp). */
export interface MigrationTarget {
  directory: string;
  name: string;
}

/** Reads `npm run migration:generate`'s arguments: the migration to write, or how the command line ends. */
export function readMigrationGenerateCommandLine(args: string[]): MigrationTarget | CommandLineExit {
  return readCommandLine({ text: USAGE, command: 'npm run migration:generate' }, () => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) return { help: values.help };
    if (positionals.length !== 1) throw new UsageError('name one migration: <directory>/<Name>');
    const [target] = positionals;
    const name = basename(target);
    if (!/^[A-Z][A-Za-z0-9]{0,99}$/.test(name)) {
      throw new UsageError(`the migration's name must be a class name in PascalCase, like AddAuthors, not ${name}`);
    }
    return { directory: dirname(target), name };
  });
}
