/**
 * Tries an application of examples/ as its developer would have it: @file-fields/nest packed by npm (`npm pack`, whose
 * prepack builds it), the example copied into a temporary directory with that tarball where its package.json expects
 * it, installed there by npm (its lock file pins the rest), and one of its npm scripts run: `test` unless another is
 * named (`start` serves it until stopped). Nothing is written into the repository but the package's own dist/.
 *
 *   node scripts/try-example.mjs NAME [SCRIPT]
 *
 * With FILE_FIELDS_TARBALL naming a tarball, that one is installed instead of packing one (the e2e suite packs its own
 * from a copy of the package, leaving dist/ alone while the service's processes load it).
 */
import { execFileSync } from 'node:child_process';
import console from 'node:console';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import process from 'node:process';
import { root } from './node-from-registry.mjs';

const [name, script = 'test'] = process.argv.slice(2);
if (!name) {
  console.error('Usage: node scripts/try-example.mjs NAME [SCRIPT]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), `example-${name}-`));
let status = 0;
try {
  let tarball = process.env.FILE_FIELDS_TARBALL;
  if (!tarball) {
    const packed = execFileSync(
      'npm',
      ['pack', '--json', '--workspace', '@file-fields/nest', '--pack-destination', work],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    tarball = join(work, JSON.parse(packed.toString())[0].filename);
  }
  const app = join(work, name);
  cpSync(join(root, 'examples', name), app, {
    recursive: true,
    filter: (path) => !['node_modules', 'dist'].includes(basename(path)) && !path.endsWith('.tgz'),
  });
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  copyFileSync(tarball, join(app, manifest.dependencies['@file-fields/nest'].replace(/^file:/, '')));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, stdio: 'inherit' });
  execFileSync('npm', ['run', script], { cwd: app, stdio: 'inherit' });
} catch (error) {
  status = typeof error.status === 'number' ? error.status : 1;
  if (typeof error.status !== 'number') console.error(error);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
