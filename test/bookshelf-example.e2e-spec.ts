/**
 * examples/bookshelf as a developer has it (scripts/try-example.mjs, which `npm run example:bookshelf` runs): its own
 * package.json and lock file, @file-fields/nest installed by npm from the tarball `npm pack` makes (as from the
 * registry), the rest from the registry (npm's cache, which the repository's own install filled), built with its own
 * tsconfig, and its own test (node:test) run by `npm test`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packFileFields } from './support/packed-package.js';

const run = promisify(execFile);

describe('examples/bookshelf', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'bookshelf-example-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('installs @file-fields/nest from its tarball and passes its own test', async () => {
    const { tarball } = await packFileFields(work);
    const report = await run(process.execPath, ['scripts/try-example.mjs', 'bookshelf'], {
      env: { ...process.env, FILE_FIELDS_TARBALL: tarball },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`the example failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      },
    );
    const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(report)?.[1]);
    expect(count('tests')).toBeGreaterThan(0);
    expect({ pass: count('pass'), fail: count('fail') }).toEqual({ pass: count('tests'), fail: 0 });
  }, 600_000);
});
