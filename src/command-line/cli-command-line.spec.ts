import { readCliCommandLine } from './cli-command-line.js';

const usageError = (problem: string) => ({
  exitCode: 2,
  stream: 'stderr',
  text: `${problem} (\`npm run cli -- --help\` shows the usage)`,
});

describe('readCliCommandLine', () => {
  it.each<[string[], object]>([
    [
      ['create-role', '--name', 'catalog-reader', '--permissions', 'product:read'],
      { command: 'create-role', values: { name: 'catalog-reader', permissions: 'product:read' } },
    ],
    [
      ['create-user', '--username', 'editor', '--password', 'short', '--role', 'admin'],
      // The password's length is the application's rule: checked once it is loaded.
      { command: 'create-user', values: { username: 'editor', password: 'short', role: 'admin' } },
    ],
    [
      ['--label', 'ERP', 'create-integration', '--role', 'admin'],
      { command: 'create-integration', values: { label: 'ERP', role: 'admin' } },
    ],
    [['rotate-signing-key'], { command: 'rotate-signing-key', values: {} }],
  ])('reads %j as the command to run', (args, expected) => {
    expect(readCliCommandLine(args)).toEqual(expected);
  });

  it.each([[['--help']], [['-h']], [['make-coffee', '-h']], [['create-role', '--help']]])(
    'answers %j with the usage on stdout and exit code 0',
    (args) => {
      expect(readCliCommandLine(args)).toEqual({
        exitCode: 0,
        stream: 'stdout',
        text: expect.stringMatching(/^Usage: npm run cli -- <command> \[options\]\n[^]*\n {2}rotate-signing-key\n/),
      });
    },
  );

  it.each([
    [[], 'No command given'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['make-coffee'], "Unknown command 'make-coffee'"],
    // Names every object has are no commands.
    [['constructor'], "Unknown command 'constructor'"],
    [['__proto__'], "Unknown command '__proto__'"],
    [['rotate-signing-key', 'now'], "Unexpected argument 'now'"],
    [['create-role'], 'create-role needs --name and --permissions'],
    [['create-role', '--name', 'viewer'], 'create-role needs --permissions'],
    [['create-integration', '--label'], "Option '--label <value>' argument missing"],
    [['create-integration', '--label', 'ERP'], 'create-integration needs --role'],
    [['create-user', '--username', 'editor', '--password', 'a long passphrase'], 'create-user needs --role'],
    [['rotate-signing-key', '--role', 'admin'], 'rotate-signing-key does not take --role'],
    [['create-role', '--name', 'viewer', '--permissions', '*', '--label', 'x'], 'create-role does not take --label'],
  ])('answers %j with one line on stderr and exit code 2', (args, problem) => {
    expect(readCliCommandLine(args)).toEqual(usageError(problem));
  });
});
