import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readCommandLine, UsageError } from './command-line.js';

const usage = { text: 'Usage: tool [--count N]', command: 'npm run tool' };

function read(args: string[]) {
  return readCommandLine(usage, () => {
    const { values } = parseArgs({
      args,
      options: { count: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) return { help: values.help };
    if (values.count !== undefined && !/^\d+$/.test(values.count)) throw new UsageError('--count must be a number');
    return { count: Number(values.count ?? 1) };
  });
}

describe('readCommandLine', () => {
  it('returns what the arguments ask for', () => {
    expect(read(['--count', '3'])).toEqual({ count: 3 });
  });

  it.each([['--help'], ['-h']])('answers %s with the usage on stdout and exit code 0', (flag) => {
    expect(read([flag, '--count', 'x'])).toEqual({ exitCode: 0, stream: 'stdout', text: usage.text });
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--count'], "Option '--count <value>' argument missing"],
    [['extra'], "Unexpected argument 'extra'"],
    [['--count', 'x'], '--count must be a number'],
  ])('answers %j with one line on stderr and exit code 2', (args, problem) => {
    expect(read(args)).toEqual({
      exitCode: 2,
      stream: 'stderr',
      text: `${problem} (\`npm run tool -- --help\` shows the usage)`,
    });
  });

  it('lets any other error through', () => {
    const failure = new Error('disk on fire');
    expect(() =>
      readCommandLine(usage, () => {
        throw failure;
      }),
    ).toThrow(failure);
  });
});

/**
 * The bare modules `file` loads before its first statement runs: its static imports, followed through the project's
 * own files (dynamic imports and `import type` load nothing then).
 */
function packagesLoadedBy(file: URL, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file.href)) return packages;
  seen.add(file.href);
  const imports = /^(?:import|export)(?!\s+type\s)(?:[^;'"]*?\sfrom\s*|\s*)'([^']+)'/gm;
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(imports)) {
    const loaded = specifier.startsWith('.')
      ? packagesLoadedBy(new URL(specifier.replace(/\.js$/, '.ts'), file), seen)
      : [specifier];
    for (const name of loaded) packages.add(name);
  }
  return packages;
}

describe('The command lines', () => {
  // The application takes a second of CPU to load: --help and usage errors must not wait for it.
  it.each([['cli.ts'], ['sweep-orphans.ts']])('%s reads its arguments with nothing loaded but Node', (entry) => {
    expect([...packagesLoadedBy(new URL(`../${entry}`, import.meta.url))]).toEqual(['node:util']);
  });
});
