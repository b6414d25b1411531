/**
 * Shared by the benchmarks (not tests): child processes that are always killed, the service started the way
 * `npm start` starts it, fresh databases, and a few HTTP helpers. Everything waits with a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabaseEnvironment } from '../test/support/database-environment.js';
import { freePort } from '../test/support/free-port.js';

/** The repository root (this file runs from dist-bench/bench/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const ADMIN_PASSWORD = 'bench-admin-password';

/** The smallest valid PNG: 1x1 pixel (the same bytes as test/support/fixtures.ts). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d494441540899636060606000000005000187a14ed40000000049454e44ae426082',
  'hex',
);

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

const children = new Set<ChildProcess>();

/** Spawns a child that `killAll` ends; its output goes to `logFile` (appended), never to the terminal. */
export function spawnTracked(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): { child: ChildProcess; exited: Promise<number | null> } {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  const exited = new Promise<number | null>((done) => {
    child.once('exit', (code) => {
      children.delete(child);
      done(code);
    });
    child.once('error', () => {
      children.delete(child);
      done(null);
    });
  });
  return { child, exited };
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export async function stopChild(
  handle: { child: ChildProcess; exited: Promise<number | null> },
  graceMs = 10_000,
): Promise<void> {
  if (handle.child.exitCode !== null || handle.child.signalCode !== null) return;
  handle.child.kill('SIGTERM');
  const timer = setTimeout(() => handle.child.kill('SIGKILL'), graceMs);
  await handle.exited;
  clearTimeout(timer);
}

/** Kills every child still running (synchronously, so it also works from an exit handler). */
export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/** The node flags, script and arguments of package.json's "start" script, e.g. `node --flag dist/src/main.js`. */
export function startCommand(): { env: Record<string, string>; nodeArgs: string[]; script: string; args: string[] } {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  // `npm start` runs the service's command through scripts/on-supported-node.mjs, which takes it quoted.
  const line = pkg.scripts.start.replace(/^node scripts\/on-supported-node\.mjs (?:--\S+ )*'([^']*)'$/, '$1');
  const words = (line.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`Cannot read the "start" script (expected "node …"): ${line}`);
  const nodeArgs: string[] = [];
  while (words.length > 0 && words[0].startsWith('-')) nodeArgs.push(words.shift()!);
  const script = words.shift();
  if (!script || /[|&;<>]/.test(words.join(' '))) throw new Error(`Cannot read the "start" script: ${line}`);
  return { env, nodeArgs, script, args: words };
}

/** A fresh database: SQLite in a temporary DATA_DIR, or a PostgreSQL schema of its own with its own SECRETS_KEY. */
export interface BenchDatabase {
  kind: 'sqlite' | 'postgres';
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function createDatabase(kind: 'sqlite' | 'postgres'): Promise<BenchDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (kind === 'postgres' && !url) throw new Error('PostgreSQL needs TEST_DATABASE_URL');
  const database = await createDatabaseEnvironment('bench', kind === 'postgres' ? url : undefined);
  // A key the benchmark knows on SQLite too (instead of DATA_DIR/secrets.key): the read floor signs file URLs with it.
  const env = { SECRETS_KEY: randomBytes(32).toString('base64'), ...database.env };
  return { kind, env, drop: () => database.drop() };
}

/** Variables of the service the benchmark sets itself; anything else in the environment is passed through. */
const OWN_VARIABLES =
  /^(LOG_LEVEL|PORT|DATA_DIR|DATABASE_URL|DATABASE_SCHEMA|SECRETS_KEY|REDIS_URL|STORAGE_.*|S3_.*|ADMIN_.*|OAUTH_ISSUER|READ_CACHE_BYTES)$/;

export interface RunningProcess {
  url: string;
  pid: number;
  logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs` (10 s by default). */
  stop(graceMs?: number): Promise<void>;
}

/** Polls `url` until it answers 2xx; throws with the log's tail if the process exits or `timeoutMs` passes. */
export async function waitUntilUp(
  url: string,
  exited: Promise<number | null>,
  logFile: string,
  timeoutMs = 60_000,
): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gone) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  const tail = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
  throw new Error(`${url} did not come up (${gone ? 'the process exited' : 'timed out'}); log ${logFile}:\n${tail}`);
}

/**
 * Starts the built service as `npm start` does (node flags read from package.json's "start" script), logs on at the
 * default level into `logFile`, on the given database, with ADMIN_PASSWORD set; `nodeArgs` come after the start
 * script's own node flags (e.g. `--cpu-prof`).
 */
export async function startService(
  database: BenchDatabase,
  logFile: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<RunningProcess> {
  const command = startCommand();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN_VARIABLES.test(name)));
  const handle = spawnTracked(
    process.execPath,
    [...command.nodeArgs, ...nodeArgs, command.script, ...command.args],
    { ...inherited, ...command.env, ...database.env, PORT: String(port), ADMIN_PASSWORD, ...env },
    logFile,
  );
  await waitUntilUp(`${url}/health`, handle.exited, logFile);
  return { url, pid: handle.child.pid!, logFile, stop: (graceMs) => stopChild(handle, graceMs) };
}

/** Starts a compiled peer (dist-bench/bench/peers/<name>.js) with plain `node`; it listens on PORT. */
export async function startPeer(
  name: string,
  logFile: string,
  readyPath: string,
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const script = join(ROOT, 'dist-bench', 'bench', 'peers', `${name}.js`);
  const handle = spawnTracked(process.execPath, [script], { ...process.env, ...env, PORT: String(port) }, logFile);
  await waitUntilUp(`${url}${readyPath}`, handle.exited, logFile);
  return { url, pid: handle.child.pid!, logFile, stop: (graceMs) => stopChild(handle, graceMs) };
}

/** Sends a JSON request and returns the parsed answer; throws unless the status is the expected one. */
export async function call<T>(
  url: string,
  method: string,
  token: string | undefined,
  body?: unknown,
  expected: number[] = [200, 201, 202],
): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An administrator's access token (password grant, client `administration`). */
export async function adminToken(url: string): Promise<string> {
  const body = await call<{ access_token: string }>(`${url}/api/oauth/token`, 'POST', undefined, {
    grant_type: 'password',
    client_id: 'administration',
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  return body.access_token;
}

/** Uploads PNGs to a file field in one multipart request (several `file` parts for a multi field). */
export async function uploadPngs(url: string, token: string, path: string, count: number): Promise<void> {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append('file', new Blob([PNG], { type: 'image/png' }), `image-${i}.png`);
  await upload(url, token, path, form);
}

/** Uploads one file to a field; its file record. */
export async function uploadFile(
  url: string,
  token: string,
  path: string,
  bytes: Buffer,
  type: string,
): Promise<{ id: number }> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), 'file');
  return (await upload(url, token, path, form)) as { id: number };
}

async function upload(url: string, token: string, path: string, form: FormData): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Resident memory of a process now (VmRSS) and at its peak so far (VmHWM), in MiB; 0 where /proc is not available. */
export async function residentMiB(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** Peak resident memory of a process (VmHWM), in MiB; 0 where /proc is not available. */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * CPU time a process has used so far (user + system), in ms; undefined where /proc is not available. Linux counts it
 * in ticks of 10 ms (USER_HZ 100), so a round of a few seconds at full load is measured to better than 1 %.
 */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // Fields after the command name, which is in parentheses and may hold spaces: state is the first, utime the 12th.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields || fields.length < 13) return undefined;
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
