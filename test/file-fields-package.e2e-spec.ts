/**
 * The workspace's package as a user receives it: the tarball `npm pack` makes (its prepack builds it), unpacked into
 * an application of its own, type-checked against the package's declarations and run by Node.js through the package's
 * `exports`, with nothing of this service's sources in reach.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { packageDir, packFileFields, type PackedPackage } from './support/packed-package.js';

const run = promisify(execFile);
const root = process.cwd();

/** The package's modules: its sources but the specs, relative to src/ and without the extension. */
async function sourceModules(dir = join(packageDir, 'src')): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replace(/\.ts$/, ''))
    .sort();
}

describe('the @file-fields/nest package', () => {
  let work: string;
  let pack: PackedPackage;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'file-fields-package-'));
    pack = await packFileFields(work);
  }, 120_000);

  afterAll(() => rm(work, { recursive: true, force: true }));

  // The sources are there for the maps, which name them (a debugger and an editor's go-to-definition open them).
  it('holds its package.json, README and, for each of its modules, the source, the ES module and its declarations only', async () => {
    const paths = [...pack.files].sort();
    const modules = await sourceModules();
    expect(modules.length).toBeGreaterThan(0);
    const compiled = modules.flatMap((module) => [
      `src/${module}.ts`,
      `dist/${module}.d.ts`,
      `dist/${module}.d.ts.map`,
      `dist/${module}.js`,
      `dist/${module}.js.map`,
    ]);
    expect(paths).toEqual(['README.md', ...compiled, 'package.json'].sort());
  });

  it('is used by an application through its exports alone: its declarations type-check and its storage works', async () => {
    const app = join(work, 'app');
    const installed = join(app, 'node_modules/@file-fields/nest');
    await mkdir(installed, { recursive: true });
    await run('tar', ['-xzf', pack.tarball, '-C', installed, '--strip-components=1']);
    // What npm would install beside it: what its package.json names (dependencies and peers), and the application's
    // own (the types of Node.js and of Express, which a Nest application has); nothing else is in reach, so an import
    // it does not declare fails here.
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Record<
      'dependencies' | 'peerDependencies',
      Record<string, string>
    >;
    const names = [
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
      '@types/node',
      '@types/express',
    ];
    for (const name of names) {
      await mkdir(join(app, 'node_modules', name, '..'), { recursive: true });
      await symlink(join(root, 'node_modules', name), join(app, 'node_modules', name));
    }
    await writeFile(join(app, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2023', strict: true, types: ['node'], outDir: 'dist' },
        include: ['main.ts'],
      }),
    );
    await writeFile(
      join(app, 'main.ts'),
      [
        "import { Readable } from 'node:stream';",
        "import { text } from 'node:stream/consumers';",
        "import { createStorage, LocalDiskStorage, type FileStorage } from '@file-fields/nest';",
        "const storage: FileStorage = await createStorage({ driver: 'local', root: process.argv[2] });",
        "await storage.put('notes/1/first', Readable.from([Buffer.from('stored through the package')]));",
        'const local = storage instanceof LocalDiskStorage;',
        "console.log(JSON.stringify({ local, text: await text(await storage.get('notes/1/first', { start: 7, end: 13 })) }));",
      ].join('\n'),
    );

    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', app]);
    const { stdout } = await run(process.execPath, [join(app, 'dist/main.js'), join(app, 'files')]);

    expect(JSON.parse(stdout)).toEqual({ local: true, text: 'through' });
  });

  it('refuses to be reached past its exports', async () => {
    const probe =
      "import('@file-fields/nest/dist/storage/file-storage.js').then(() => process.exit(0), (e) => { console.log(e.code); process.exit(1); })";
    const failure = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd: root }).catch(
      (error: { stdout: string }) => error,
    );
    expect(failure).toMatchObject({ stdout: 'ERR_PACKAGE_PATH_NOT_EXPORTED\n' });
  });
});
