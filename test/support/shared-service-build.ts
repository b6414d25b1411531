/*
 * The service compiled once per jest run for the suites that start it as processes of their own (buildService in
 * service-process.ts), instead of once per suite: this module is the e2e project's globalSetup and globalTeardown.
 * Jest loads it outside the test environment, so it imports nothing but Node.js's modules.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Names the run's shared build for the suites: set before jest starts its workers, which inherit it. */
export const SHARED_BUILD_DIR = 'SHARED_SERVICE_BUILD_DIR';

/** Compiles the service and the response contract check its processes preload into `dir`. */
export async function compileService(dir: string): Promise<void> {
  const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
  // No type checking here: `npm test` type checks first, and the e2e suites themselves run untyped (ts-jest's
  // diagnostics are off); checking would double the time of the build.
  await Promise.all([
    run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dir, '--noCheck']),
    // The response contract check the processes load with --import (see launchServiceProcess).
    run(process.execPath, [
      tsc,
      ...['--ignoreConfig', 'test/support/openapi-contract.preload.ts', '--outDir', join(dir, 'test/support')],
      ...['--rootDir', 'test/support', '--module', 'nodenext', '--target', 'es2023', '--types', 'node', '--noCheck'],
    ]),
  ]);
}

/** The build this process made in globalSetup, until globalTeardown removes it (both run in jest's main process). */
const current = Symbol.for('shared-service-build');
type WithBuild = typeof globalThis & { [current]?: string };

/**
 * Jest takes globalSetup and globalTeardown each as a module's default export, and calls them in this order in one
 * process: the first call builds (into dist-test/service-<pid>, beside other runs' builds), the second removes it.
 */
export default async function sharedServiceBuild(): Promise<void> {
  const state = globalThis as WithBuild;
  const built = state[current];
  if (built) {
    delete state[current];
    delete process.env[SHARED_BUILD_DIR];
    await rm(built, { recursive: true, force: true });
    return;
  }
  const dir = join(process.cwd(), 'dist-test', `service-${process.pid}`);
  await compileService(dir);
  state[current] = dir;
  process.env[SHARED_BUILD_DIR] = dir;
}
