import { readMigrationGenerateCommandLine } from './migration-generate-command-line.js';

describe('readMigrationGenerateCommandLine', () => {
  it.each<[string[], object]>([
    [['src/catalog/migrations/AddAuthors'], { directory: 'src/catalog/migrations', name: 'AddAuthors' }],
    [['AddAuthors'], { directory: '.', name: 'AddAuthors' }],
  ])('reads %j as the migration to write', (args, expected) => {
    expect(readMigrationGenerateCommandLine(args)).toEqual(expected);
  });

  it('answers --help with the usage on stdout and exit code 0', () => {
    expect(readMigrationGenerateCommandLine(['--help'])).toEqual({
      exitCode: 0,
      stream: 'stdout',
      text: expect.stringMatching(/^Usage: npm run migration:generate -- <directory>\/<Name>\n/),
    });
  });

  it.each([
    [[], 'name one migration: <directory>/<Name>'],
    [['a/One', 'b/Two'], 'name one migration: <directory>/<Name>'],
    [['src/add-authors'], "the migration's name must be a class name in PascalCase, like AddAuthors, not add-authors"],
    [
      ['src/AddAuthors.ts'],
      "the migration's name must be a class name in PascalCase, like AddAuthors, not AddAuthors.ts",
    ],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('answers %j with one line on stderr and exit code 2', (args, problem) => {
    expect(readMigrationGenerateCommandLine(args)).toEqual({
      exitCode: 2,
      stream: 'stderr',
      text: `${problem} (\`npm run migration:generate -- --help\` shows the usage)`,
    });
  });
});
