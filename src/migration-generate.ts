import { exitWith } from './command-line/command-line.js';
import { readMigrationGenerateCommandLine } from './command-line/migration-generate-command-line.js';

// Read before the application loads (a second of CPU): --help and usage errors answer at once.
const commandLine = readMigrationGenerateCommandLine(process.argv.slice(2));
if ('exitCode' in commandLine) exitWith(commandLine);

const { generateMigration } = await import('./command-line/migration-generate-run.js');
const written = await generateMigration(commandLine);
if (written === undefined) {
  process.stderr.write('Nothing to generate: the migrations already create what the entities declare.\n');
  process.exit(1);
}
process.stdout.write(`Wrote ${written}\n`);
process.exit(0);
