/**
 * A Node.js distribution taken from the npm registry: the node-<platform>-<arch> package holds a whole one (bin/node,
 * and the C++ headers node-gyp needs). Only the releases pinned in scripts/node-releases.json are taken, each checked
 * against its pinned sha512 before it is unpacked. It is unpacked once under node_modules/.cache/node-from-registry/
 * and used from there: nothing on the machine changes. To use one in a shell:
 *
 *   export PATH="$(node scripts/node-from-registry.mjs 24)/bin:$PATH"      (the pinned release of 24 or 26, or of a range)
 *
 * Plain JavaScript without dependencies, as scripts/on-supported-node.mjs imports it on an old Node.js (18 and later).
 */
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { createHash } from 'node:crypto';
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

/**
 * The releases that may be downloaded, by major version and platform: { "24": { "linux-x64": { version, integrity } } }.
 * Checked into the repository, so that what runs is what was reviewed, whatever the registry publishes later.
 */
export const pinFile = join(root, 'scripts', 'node-releases.json');

export function readPins(file = pinFile) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).releases;
  } catch (error) {
    throw new NoNode(`scripts/node-releases.json cannot be read (${error.message})`);
  }
}

/**
 * The pinned release for a major version ("24") or a range ("^24.11.0 || >=26"): { version, integrity }, the newest of
 * this platform's pinned releases in it. The registry is never asked which releases exist.
 */
export function pinnedRelease(range, { pins = readPins(), platform: on = platform } = {}) {
  const releases = Object.values(pins)
    .map((byPlatform) => byPlatform[on])
    .filter(Boolean);
  const version = newest(
    releases.map((release) => release.version),
    range,
  );
  if (!version) {
    const pinned = releases.map((release) => release.version).join(', ') || 'none';
    throw new NoNode(
      `only releases pinned in scripts/node-releases.json are used, and none for ${on} (${pinned}) is in that range`,
    );
  }
  return releases.find((release) => release.version === version);
}

/** What to install instead, for the end of a sentence. */
export function whatToInstall(range) {
  let majors = [];
  try {
    majors = Object.keys(readPins());
  } catch {
    // The range alone names it.
  }
  const lines = majors.length > 0 ? `Node.js ${majors.join(' or ')}` : 'a Node.js';
  return `install ${lines} (as engines allows: ${range}) from nodejs.org or your distribution's packages`;
}

/**
 * The release a command of package.json runs on when the running Node.js (`running`) does not satisfy `range`, else
 * null. With NODE_ENV=production nothing is downloaded: a production machine runs the Node.js installed on it.
 */
export function releaseFor(range, { running = process.version, env = process.env, pins, platform: on } = {}) {
  if (!range || satisfies(running, range)) return null;
  if (env.NODE_ENV === 'production') throw new NoNode('with NODE_ENV=production none is downloaded');
  return pinnedRelease(range, { pins, platform: on });
}

/** Whether a file's sha512 is `integrity` (npm's form, "sha512-" and the digest in base64). */
export function hasIntegrity(file, integrity) {
  if (!/^sha512-[A-Za-z0-9+/]{86}==$/.test(String(integrity))) return false;
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}` === integrity;
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

const here = { cacheDir, platform };
/** Written into an unpacked release: the integrity its tarball was checked against. */
const MARK = '.integrity';

export const distribution = (version, where = here) => join(where.cacheDir, `node-v${version}-${where.platform}`);

function verified({ version, integrity }, where) {
  const dir = distribution(version, where);
  const mark = join(dir, MARK);
  return existsSync(join(dir, 'bin', 'node')) && existsSync(mark) && readFileSync(mark, 'utf8') === integrity;
}

/**
 * Checks a downloaded tarball against the pinned integrity, then unpacks it into the cache (unless it is there) and
 * returns the release's directory. A tarball that does not match is deleted before anything in it is read.
 */
export function unpackTarball(tarball, release, where = here) {
  const { version, integrity } = release;
  const name = `node-${where.platform}@${version}`;
  if (!hasIntegrity(tarball, integrity)) {
    rmSync(tarball, { force: true });
    throw new NoNode(
      `the download of ${name} does not match its integrity in scripts/node-releases.json, so it was deleted unopened`,
    );
  }
  const dir = distribution(version, where);
  mkdirSync(where.cacheDir, { recursive: true });
  // Unpacked beside its final place, then renamed: a run going on at the same time sees all of it or none.
  const work = mkdtempSync(join(where.cacheDir, '.unpack-'));
  try {
    if (existsSync(join(dir, 'bin', 'node'))) {
      // Unpacked before integrities were pinned (from this same release, which npm checked against the registry):
      // it is marked rather than swapped under the processes that may be running it.
      writeFileSync(join(work, MARK), integrity);
      renameSync(join(work, MARK), join(dir, MARK));
    } else {
      const tar = spawnSync('tar', ['-xzf', tarball, '-C', work], { encoding: 'utf8' });
      if (tar.status !== 0)
        throw new NoNode(`${name} could not be unpacked (${tar.error?.message ?? tar.stderr.trim()})`);
      writeFileSync(join(work, 'package', MARK), integrity);
      try {
        renameSync(join(work, 'package'), dir);
      } catch (error) {
        if (!verified(release, where)) {
          if (existsSync(join(dir, 'bin', 'node'))) throw error;
          // What an interrupted run left there.
          rmSync(dir, { recursive: true, force: true });
          renameSync(join(work, 'package'), dir);
        }
      }
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
  for (const entry of readdirSync(where.cacheDir)) {
    if (entry.startsWith(major) && !entry.startsWith(`node-v${version}-`)) {
      rmSync(join(where.cacheDir, entry), { recursive: true, force: true });
    }
  }
  return dir;
}

/**
 * A pinned release's directory: the one unpacked before (no network needed), else downloaded with `npm pack` (through
 * npm's cache) and checked against its integrity first. With NODE_ENV=production nothing is downloaded.
 */
export function unpack(release, { where = here, env = process.env } = {}) {
  if (verified(release, where)) return distribution(release.version, where);
  if (env.NODE_ENV === 'production') throw new NoNode('with NODE_ENV=production none is downloaded');
  mkdirSync(where.cacheDir, { recursive: true });
  const download = mkdtempSync(join(where.cacheDir, '.download-'));
  try {
    const name = `node-${where.platform}`;
    const pack = npm(['pack', `${name}@${release.version}`, '--pack-destination', download, '--silent'], {
      cwd: download,
    });
    if (pack.status !== 0) {
      throw new NoNode(`the npm registry did not give ${name}@${release.version} (${npmError(pack)})`);
    }
    return unpackTarball(join(download, `${name}-${release.version}.tgz`), release, where);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const range = process.argv[2];
  if (!range) {
    console.error(
      'usage: node scripts/node-from-registry.mjs MAJOR|RANGE   (prints the directory of a pinned Node.js, e.g. for 24)',
    );
    process.exit(2);
  }
  try {
    console.log(unpack(pinnedRelease(range)));
  } catch (error) {
    if (!(error instanceof NoNode)) throw error;
    console.error(`No Node.js ${range} from the npm registry: ${error.message}.`);
    process.exit(1);
  }
}
