/**
 * Runs a command of package.json's scripts (start, test, cli…) on a Node.js that satisfies package.json's `engines`.
 * When the Node.js running npm does not, the newest release pinned in scripts/node-releases.json that does is taken
 * from the npm registry for this project (scripts/node-from-registry.mjs) and put first on the command's PATH: the
 * machine's Node.js stays as it is. With NODE_ENV=production nothing is downloaded: it stops, naming what to install.
 *
 *   node scripts/on-supported-node.mjs [--build-if-changed] 'COMMAND' [ARGUMENT…]
 *
 * COMMAND runs in sh with the ARGUMENTs appended, as npm appends those of `npm test -- ARGUMENT…`. With
 * --build-if-changed, `npm run build` runs first when its inputs changed (scripts/build-if-changed.mjs).
 * Plain JavaScript without dependencies: it runs on old Node.js (18 and later), before anything else is known to work.
 */
import { spawn } from 'node:child_process';
import console from 'node:console';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { buildIfChanged } from './build-if-changed.mjs';
import { NoNode, packageName, releaseFor, root, unpack, whatToInstall } from './node-from-registry.mjs';

function stop(sentence) {
  console.error(sentence);
  process.exit(1);
}

/** The environment whose PATH starts with a Node.js that satisfies `range` (this one's when it does). */
function supportedNodeEnv(range) {
  const here = `Node.js ${process.version} here does not satisfy this project's engines (${range})`;
  try {
    const release = releaseFor(range);
    if (!release) return process.env;
    console.error(
      `${here}, so this runs on Node.js v${release.version}, pinned in scripts/node-releases.json, from the npm ` +
        `registry (${packageName}, kept in node_modules/.cache/); the machine's Node.js is unchanged (npm install's ` +
        `EBADENGINE warnings were about it).`,
    );
    const node = join(unpack(release), 'bin', 'node');
    const path = `${join(node, '..')}${delimiter}${process.env.PATH ?? ''}`;
    // npm names the Node.js that runs it in NODE and npm_node_execpath: tools that read them get this one too.
    return { ...process.env, PATH: path, NODE: node, npm_node_execpath: node };
  } catch (error) {
    if (!(error instanceof NoNode)) throw error;
    return stop(`${here}, and ${error.message}: ${whatToInstall(range)}, then run the command again.`);
  }
}

const args = process.argv.slice(2);
const build = args[0] === '--build-if-changed';
if (build) args.shift();
const [command, ...rest] = args;
if (!command) stop("usage: node scripts/on-supported-node.mjs [--build-if-changed] 'COMMAND' [ARGUMENT…]");
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  stop('The dependencies are not installed: run `npm install` first.');
}

const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node;
const env = supportedNodeEnv(range);
if (build) {
  const code = await buildIfChanged(env);
  if (code !== 0) process.exit(code);
}

// A plain command runs without a shell, so that signals reach it (sh does not pass them on).
const plain = /^[\w./=:@-]+( [\w./=:@-]+)*$/.test(command);
const [file, ...words] = plain ? command.split(' ') : ['sh', '-c', `${command} "$@"`, 'sh'];
const child = spawn(file, [...words, ...rest], { cwd: process.cwd(), env, stdio: 'inherit' });
child.on('error', (error) => stop(`${file} could not be run: ${error.message}.`));

// Signals are passed on, and this process ends as the command did. A terminal's Ctrl-C reaches both: the command
// takes a repeated signal as one.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of SIGNALS) process.on(signal, () => child.kill(signal));
// npm runs this through sh, which dies of a SIGTERM sent to npm without passing it on: a new parent means that.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  child.kill('SIGTERM');
}, 1000);
watch.unref();
child.on('exit', (code, signal) => {
  clearInterval(watch);
  if (!signal) process.exit(code ?? 1);
  for (const name of SIGNALS) process.removeAllListeners(name);
  process.kill(process.pid, signal);
});
