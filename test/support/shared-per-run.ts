/*
 * What the suites of one jest run share, made once instead of once per suite: the service compiled for the suites that
 * start it as processes of their own (buildService in service-process.ts) and, for the e2e suites, one Chromium for
 * the browser suites (browser.ts). This module is the globalSetup and globalTeardown of the projects that need them.
 * Jest loads it outside the test environment, so it imports nothing but packages and Node.js's modules.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserServer, type LaunchOptions } from 'playwright-core';

const run = promisify(execFile);

/** Names the run's shared build for the suites: set before jest starts its workers, which inherit it. */
export const SHARED_BUILD_DIR = 'SHARED_SERVICE_BUILD_DIR';
/** Names the WebSocket endpoint of the run's shared Chromium, likewise. */
export const SHARED_BROWSER_ENDPOINT = 'SHARED_BROWSER_ENDPOINT';

/** Debian's Chromium (.ci/run installs it when missing; CHROMIUM_PATH overrides the location), headless, off the network. */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * Compiles the service and the response contract check its processes preload into `dir`, and the workspace's package
 * into its own dist/, where the service's processes import it from (node_modules links to the package).
 */
export async function compileService(dir: string): Promise<void> {
  const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
  // No type checking here: `npm test` type checks first, and the e2e suites themselves run untyped (ts-jest's
  // diagnostics are off); checking would double the time of the build.
  await Promise.all([
    run(process.execPath, [tsc, '-p', 'packages/file-fields/tsconfig.build.json', '--noCheck']),
    run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dir, '--noCheck']),
    // The response contract check the processes load with --import (see launchServiceProcess).
    run(process.execPath, [
      tsc,
      ...['--ignoreConfig', 'test/support/openapi-contract.preload.ts', '--outDir', join(dir, 'test/support')],
      ...['--rootDir', 'test/support', '--module', 'nodenext', '--target', 'es2023', '--types', 'node', '--noCheck'],
    ]),
  ]);
}

/** What this process made in globalSetup, until globalTeardown ends it (both run in jest's main process). */
const current = Symbol.for('shared-per-run');
type WithShared = typeof globalThis & { [current]?: { build: string; browser: BrowserServer | null } };

/**
 * Jest takes globalSetup and globalTeardown each as a module's default export, and calls them in this order in one
 * process: the first call builds (into dist-test/service-<pid>, beside other runs' builds) and, for the e2e project,
 * starts a Chromium (a launch costs a suite 1-2 s of CPU); the second removes the build and stops the browser.
 */
export default async function sharedPerRun(_: unknown, project: { displayName?: { name: string } }): Promise<void> {
  const state = globalThis as WithShared;
  const made = state[current];
  if (made) {
    delete state[current];
    delete process.env[SHARED_BUILD_DIR];
    delete process.env[SHARED_BROWSER_ENDPOINT];
    await Promise.all([rm(made.build, { recursive: true, force: true }), made.browser?.close()]);
    return;
  }
  const build = join(process.cwd(), 'dist-test', `service-${process.pid}`);
  const [browser] = await Promise.all([
    // Without a Chromium here, each browser suite launches its own, and says what is missing.
    project.displayName?.name === 'e2e' ? chromium.launchServer(CHROMIUM_LAUNCH).catch(() => null) : null,
    compileService(build),
  ]);
  state[current] = { build, browser };
  process.env[SHARED_BUILD_DIR] = build;
  if (browser) process.env[SHARED_BROWSER_ENDPOINT] = browser.wsEndpoint();
}
