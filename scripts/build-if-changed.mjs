/**
 * `npm run build` when what the build reads changed since the last build that succeeded: a digest of the inputs'
 * contents is written beside the output after a build and compared before the next start. Contents, not times: a
 * checkout or a copy that changes nothing does not rebuild, and an edit made during a build is seen the next time.
 * `nest build` empties dist/ first, so a build that failed leaves no digest and the next start builds again.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './node-from-registry.mjs';

/** What `npm run build` reads (sources, its configuration, the installed packages' versions). */
const INPUTS = [
  'src',
  'packages/file-fields/src',
  'packages/file-fields/package.json',
  'packages/file-fields/tsconfig.build.json',
  'admin',
  'ormconfig.ts',
  'nest-cli.json',
  'package.json',
  'package-lock.json',
];
/** Inside the inputs but written by the build. */
const OUTPUTS = new Set(['admin/dist']);
/** The build's output that a start needs, and where the digest is kept (dist/ is emptied by each build). */
const NEEDED = ['dist/src/main.js', 'packages/file-fields/dist/index.js', 'admin/dist/index.html'];
const STAMP = join(root, 'dist', '.build-inputs');

/** The files under a path (itself when it is a file), in a stable order. */
function files(path) {
  if (OUTPUTS.has(path) || !existsSync(join(root, path))) return [];
  if (!statSync(join(root, path)).isDirectory()) return [path];
  const entries = readdirSync(join(root, path), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((entry) => {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) return files(child);
    return entry.isFile() ? [child] : [];
  });
}

export function inputsDigest() {
  const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  const hash = createHash('sha256');
  for (const input of [...INPUTS, ...tsconfigs.sort()]) {
    for (const path of files(input)) {
      hash
        .update(`${path}\0`)
        .update(readFileSync(join(root, path)))
        .update('\0');
    }
  }
  return hash.digest('hex');
}

function upToDate(digest) {
  if (!NEEDED.every((path) => existsSync(join(root, path)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest;
}

/** Builds when needed (with `env`, whose PATH picks the Node.js); resolves to the build's exit code, 0 when skipped. */
export async function buildIfChanged(env) {
  const digest = inputsDigest();
  if (upToDate(digest)) return 0;
  // The npm on PATH, so that it runs on the Node.js that env's PATH names first.
  const build = spawn('npm', ['run', 'build'], { cwd: root, env, stdio: 'inherit' });
  const code = await new Promise((resolve) => {
    build.on('error', () => resolve(127));
    build.on('exit', (exitCode, signal) => resolve(signal ? 1 : (exitCode ?? 1)));
  });
  if (code === 0) writeFileSync(STAMP, digest);
  return code;
}
