/**
 * A Node.js distribution taken from the npm registry: the node-<platform>-<arch> package holds a whole one (bin/node,
 * and the C++ headers node-gyp needs). It is unpacked once under node_modules/.cache/node-from-registry/ and used from
 * there: nothing on the machine changes. To use one in a shell:
 *
 *   export PATH="$(node scripts/node-from-registry.mjs 24)/bin:$PATH"      (the newest release in 24, 26, 24.11.1…)
 *
 * Plain JavaScript without dependencies, as scripts/on-supported-node.mjs imports it on an old Node.js (18 and later).
 */
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const cacheDir = join(root, 'node_modules', '.cache', 'node-from-registry');
export const platform = `${process.platform}-${process.arch}`;
export const packageName = `node-${platform}`;

/** Why no Node.js could be had, worded to follow "and": the caller adds what to do. */
export class NoNode extends Error {}

/** [major, minor, patch] of a release ("24.11.0", "v20.20.2"); null for a prerelease or anything else. */
export function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(String(text).trim());
  return match ? match.slice(1, 4).map(Number) : null;
}

function compare(a, b) {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The version after everything that a partial version covers up to `index`: (24, 0) → 25.0.0, (24.11, 1) → 24.12.0. */
function bump(version, index) {
  return version.map((part, i) => (i < index ? part : i === index ? part + 1 : 0));
}

/** One comparator of a range ("^24.11.0", ">=26", "24", "24.x") as [lowest allowed, first excluded or null]. */
function bounds(comparator) {
  const match = /^(\^|~|>=|<=|>|<|=)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(comparator);
  if (!match) throw new NoNode(`its range "${comparator}" cannot be read here`);
  const [, operator = '=', ...parts] = match;
  const given = [];
  for (const part of parts) {
    if (part === undefined || /[xX*]/.test(part)) break;
    given.push(Number(part));
  }
  const floor = [...given, 0, 0, 0].slice(0, 3);
  if (given.length === 0) return operator === '<' || operator === '>' ? [[Infinity, 0, 0], null] : [[0, 0, 0], null];
  const next = bump(floor, given.length - 1);
  const caret = given.length === 1 || floor[0] > 0 ? 0 : given.length === 2 || floor[1] > 0 ? 1 : 2;
  return {
    '=': [floor, next],
    '>=': [floor, null],
    '>': [next, null],
    '<': [[0, 0, 0], floor],
    '<=': [[0, 0, 0], next],
    '^': [floor, bump(floor, caret)],
    '~': [floor, bump(floor, given.length === 1 ? 0 : 1)],
  }[operator];
}

/** Whether a release is in a range of the form engines fields use (comparators, sets joined by ||). */
export function satisfies(version, range) {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  return range.split('||').some((set) => {
    const comparators = set
      .replace(/(\^|~|[<>]=?|=)\s+/g, '$1')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return comparators.every((comparator) => {
      const [low, high] = bounds(comparator);
      return compare(parsed, low) >= 0 && (high === null || compare(parsed, high) < 0);
    });
  });
}

/** The newest release in the range, of an even (long-term support) major version when there is one. */
export function newest(versions, range) {
  const matching = versions.filter((version) => satisfies(version, range)).map(parseVersion);
  const even = matching.filter((version) => version[0] % 2 === 0);
  const best = (even.length > 0 ? even : matching).sort(compare).pop();
  return best ? best.join('.') : null;
}

/** The npm that runs this script when it runs from an npm script, else the npm on PATH. */
function npm(args, options) {
  const cli = process.env.npm_execpath;
  const [command, first] = cli && /npm-cli\.[cm]?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
  const result = spawnSync(command, [...first, ...args], { encoding: 'utf8', timeout: 300_000, ...options });
  if (result.error) throw new NoNode(`npm could not be run (${result.error.message})`);
  return result;
}

function npmError(result) {
  return /npm (?:error|ERR!) code (\S+)/.exec(result.stderr ?? '')?.[1] ?? `exit code ${result.status}`;
}

export const distribution = (version) => join(cacheDir, `node-v${version}-${platform}`);
const unpacked = (version) => existsSync(join(distribution(version), 'bin', 'node'));

/** Releases of this platform's package already unpacked here, for when the registry is out of reach. */
function cachedVersions() {
  const suffix = `-${platform}`;
  return (existsSync(cacheDir) ? readdirSync(cacheDir) : [])
    .filter((name) => name.startsWith('node-v') && name.endsWith(suffix))
    .map((name) => name.slice('node-v'.length, -suffix.length))
    .filter(unpacked);
}

/**
 * The release to use for a range: { version, dir, offline }. With `reuseForMs`, the answer the registry gave for the
 * same range within that time is used without asking it again (so that a restart does not wait for it).
 */
export function resolveNode(range, { reuseForMs = 0 } = {}) {
  const answer = join(cacheDir, `newest-${platform}.json`);
  if (reuseForMs > 0 && existsSync(answer)) {
    const last = JSON.parse(readFileSync(answer, 'utf8'));
    if (last.range === range && Date.now() - last.at < reuseForMs && unpacked(last.version)) {
      return { version: last.version, dir: distribution(last.version), offline: false };
    }
  }
  // Few and short retries: without the registry, a release unpacked before is used, or the caller is told at once.
  const quick = ['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=2000'];
  const result = npm(['view', packageName, 'versions', '--json', ...quick, '--fetch-timeout=30000'], { cwd: root });
  if (result.status !== 0 && npmError(result) !== 'E404') {
    const version = newest(cachedVersions(), range);
    if (version) return { version, dir: distribution(version), offline: true };
    throw new NoNode(`the npm registry could not be reached to take one (npm: ${npmError(result)})`);
  }
  const versions = result.status === 0 ? [].concat(JSON.parse(result.stdout)) : [];
  const version = newest(versions, range);
  if (!version) throw new NoNode(`the npm registry has no Node.js in that range for ${platform} (${packageName})`);
  if (reuseForMs > 0) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(answer, JSON.stringify({ range, version, at: Date.now() }));
  }
  return { version, dir: distribution(version), offline: false };
}

/** Downloads (through npm's cache) and unpacks a release unless it is here, and returns its directory. */
export function unpack(version) {
  const dir = distribution(version);
  if (unpacked(version)) return dir;
  mkdirSync(cacheDir, { recursive: true });
  // Unpacked beside its final place, then renamed: a run going on at the same time sees all of it or none.
  const work = mkdtempSync(join(cacheDir, '.unpack-'));
  try {
    const pack = npm(['pack', `${packageName}@${version}`, '--pack-destination', work, '--silent'], { cwd: work });
    if (pack.status !== 0)
      throw new NoNode(`the npm registry did not give ${packageName}@${version} (${npmError(pack)})`);
    const tar = spawnSync('tar', ['-xzf', join(work, `${packageName}-${version}.tgz`), '-C', work], {
      encoding: 'utf8',
    });
    if (tar.status !== 0)
      throw new NoNode(`${packageName}@${version} could not be unpacked (${tar.error?.message ?? tar.stderr.trim()})`);
    try {
      renameSync(join(work, 'package'), dir);
    } catch (error) {
      if (!unpacked(version)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const check = spawnSync(join(dir, 'bin', 'node'), ['--version'], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new NoNode(`the Node.js ${version} of the npm registry does not run on this machine`);
  }
  // One release per major version is kept, with what was built for it (.ci/test-on-node).
  const major = `node-v${version.split('.')[0]}.`;
  for (const name of readdirSync(cacheDir)) {
    if (name.startsWith(major) && !name.startsWith(`node-v${version}-`)) {
      rmSync(join(cacheDir, name), { recursive: true, force: true });
    }
  }
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const range = process.argv[2];
  if (!range) {
    console.error(
      'usage: node scripts/node-from-registry.mjs RANGE   (prints the directory of a Node.js, e.g. for 24)',
    );
    process.exit(2);
  }
  try {
    const { version, offline } = resolveNode(range);
    if (offline) console.error(`The npm registry is out of reach: Node.js ${version}, taken from it before, is used.`);
    console.log(unpack(version));
  } catch (error) {
    if (!(error instanceof NoNode)) throw error;
    console.error(`No Node.js ${range} from the npm registry: ${error.message}.`);
    process.exit(1);
  }
}
