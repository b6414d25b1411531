import { readSweepOrphansCommandLine } from './sweep-orphans-command-line.js';

describe('readSweepOrphansCommandLine', () => {
  it.each<[string[], object]>([
    [[], { dryRun: false, graceMs: undefined }],
    [['--dry-run'], { dryRun: true, graceMs: undefined }],
    [['--grace-seconds', '90'], { dryRun: false, graceMs: 90_000 }],
    [['--dry-run', '--grace-seconds', '0'], { dryRun: true, graceMs: 0 }],
  ])('reads %j as the sweep to run', (args, expected) => {
    expect(readSweepOrphansCommandLine(args)).toEqual(expected);
  });

  it.each([[['--help']], [['-h', '--grace-seconds', 'soon']]])(
    'answers %j with the usage on stdout and exit code 0',
    (args) => {
      expect(readSweepOrphansCommandLine(args)).toEqual({
        exitCode: 0,
        stream: 'stdout',
        text: expect.stringMatching(/^Usage: npm run sweep-orphans -- \[--dry-run\] \[--grace-seconds N\]\n/),
      });
    },
  );

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--grace-seconds'], "Option '--grace-seconds <value>' argument missing"],
    [['--grace-seconds', 'soon'], '--grace-seconds must be a whole number of seconds'],
    [['--grace-seconds', '1.5'], '--grace-seconds must be a whole number of seconds'],
    [['--grace-seconds=-1'], '--grace-seconds must be a whole number of seconds'],
    [['--grace-seconds', '1e400'], '--grace-seconds must be a whole number of seconds'],
    [['--dry-run', 'now'], "Unexpected argument 'now'"],
  ])('answers %j with one line on stderr and exit code 2', (args, problem) => {
    expect(readSweepOrphansCommandLine(args)).toEqual({
      exitCode: 2,
      stream: 'stderr',
      text: `${problem} (\`npm run sweep-orphans -- --help\` shows the usage)`,
    });
  });
});
