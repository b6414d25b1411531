import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { checkMode, readViolationLog } from './openapi-contract.js';
import { compileService, SHARED_BUILD_DIR } from './shared-per-run.js';
import { ADMIN_PASSWORD, type TestDatabase } from './test-app.js';
import { eventually } from './wait.js';

const run = promisify(execFile);
const root = process.cwd();

/** The service compiled to JavaScript, to run as processes of their own (`npm start` runs the same). */
export interface ServiceBuild {
  dir: string;
  /** Runs one of the build's scripts (e.g. `src/sweep-orphans.js`) to its end. */
  run(script: string, args: string[], env: Record<string, string>): Promise<{ stdout: string }>;
  /** Removes a build made for this suite; leaves the run's shared build to the run's end, as other suites use it. */
  remove(): Promise<void>;
}

/**
 * The build of the jest run (made once by its globalSetup, test/support/shared-per-run.ts), or, in a run without
 * it (a project that does not set it up), one made for this suite under `name`.
 */
export async function buildService(name: string): Promise<ServiceBuild> {
  const shared = process.env[SHARED_BUILD_DIR];
  if (shared) return serviceBuild(shared, () => Promise.resolve());
  const dir = join(root, 'dist-test', `${name}-${process.pid}`);
  await compileService(dir);
  return serviceBuild(dir, () => rm(dir, { recursive: true, force: true }));
}

function serviceBuild(dir: string, remove: () => Promise<void>): ServiceBuild {
  return {
    dir,
    run: (script, args, env) =>
      run(process.execPath, [join(dir, script), ...args], { env: { ...process.env, ...env } }),
    remove,
  };
}

/**
 * One instance of the service in a process of its own. Separate processes are what instances are in production (in
 * one process, libraries' singletons such as passport's strategies would be shared).
 */
export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (its pino log). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Stops the process with `signal` (SIGTERM: a graceful shutdown) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the service's process with `env` on top of this one's (logs off unless LOG_LEVEL is given); does not wait. */
export async function launchServiceProcess(
  build: ServiceBuild,
  env: Record<string, string | undefined>,
  port?: number,
): Promise<ServiceProcess> {
  port ??= await freePort();
  // Its responses are checked against openapi.json as the in-process apps' are; violations come back in a file.
  const contract: string[] = [];
  const violationLog = join(build.dir, `openapi-violations-${port}-${Date.now()}.jsonl`);
  if (checkMode() !== 'off') {
    contract.push('--import', pathToFileURL(join(build.dir, 'test/support/openapi-contract.preload.js')).href);
    readViolationLog(violationLog);
  }
  const child = spawn(process.execPath, [...contract, join(build.dir, 'src/main.js')], {
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD,
      ORPHAN_SWEEP_INTERVAL: '0',
      ...env,
      PORT: String(port),
      OPENAPI_RESPONSE_LOG: violationLog,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => Buffer.concat(chunks).toString('utf8'),
    exited,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Starts an instance on the suite's database and waits until it answers /health. */
export async function startServiceProcess(
  build: ServiceBuild,
  database: TestDatabase,
  env: Record<string, string | undefined> = {},
  port?: number,
): Promise<ServiceProcess> {
  const service = await launchServiceProcess(build, { ...database.env, ...env }, port);
  // Until the service listens, fetch fails: that is "not yet", not an error, unless the process has ended.
  const healthy = () =>
    fetch(`${service.url}/health`).then(
      (res) => (res.ok ? true : undefined),
      () => {
        if (service.child.exitCode === null) return undefined;
        throw new Error(`The service exited (${service.child.exitCode}): ${service.output().slice(-2000)}`);
      },
    );
  try {
    await eventually('the service to start', healthy, 60_000);
  } catch (error) {
    await service.stop('SIGKILL');
    throw error;
  }
  return service;
}
