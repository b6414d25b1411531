/** Jest runs in native ESM mode: the NestJS 12 packages are ES modules only. */
const tsJest = ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }];

const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  // The workspace's packages from their sources, as tsconfig.json's paths name them: no build before a test.
  moduleNameMapper: {
    '^@file-fields/nest$': '<rootDir>/packages/file-fields/src/index.ts',
    '^@file-fields/nest/testing$': '<rootDir>/packages/file-fields/src/testing.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
  rootDir: '.',
};

/**
 * The service compiled once per run for the suites that start it as processes of their own (buildService), and for
 * e2e also one Chromium for the browser suites. Jest runs a project's globalSetup only when the run has tests of that
 * project, once per run however many projects share it: `--selectProjects unit` builds nothing.
 */
const sharedPerRun = {
  globalSetup: '<rootDir>/test/support/shared-per-run.ts',
  globalTeardown: '<rootDir>/test/support/shared-per-run.ts',
};

export default {
  projects: [
    // scripts/: the plain-JavaScript launcher's unit specs (native ES modules, not transformed).
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{src,packages/*/src}/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.mjs'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      ...sharedPerRun,
      setupFiles: ['<rootDir>/test/setup-env.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-contract.ts'],
    },
    // `npm run test:fuzz` only: the default run selects unit and e2e (package.json).
    {
      ...shared,
      displayName: 'fuzz',
      testMatch: ['<rootDir>/test/fuzz/**/*.fuzz-spec.ts'],
      setupFiles: ['<rootDir>/test/setup-env.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-contract.ts'],
    },
    // `npm run test:faults` only (PostgreSQL, Redis and S3 with faults injected): the default run selects unit and e2e.
    {
      ...shared,
      displayName: 'faults',
      testMatch: ['<rootDir>/test/faults/**/*.faults-spec.ts'],
      ...sharedPerRun,
      setupFiles: ['<rootDir>/test/setup-env.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-contract.ts'],
    },
  ],
  // Only there to end a hung test: what a test bounds in time, it bounds itself. Starting an app with its database takes
  // 2-5 s on a usual machine and has taken over 30 s on a slow one.
  testTimeout: 90_000,
  // Each test file imports the application anew (ESM modules are not released between files), so one process running
  // every file grows past its heap. With a limit Jest runs the files in a worker, and replaces it once it holds more.
  workerIdleMemoryLimit: '1GB',
  // Jest's default is one worker fewer than the cores: a single worker on a 2-core machine. An e2e file spends much of
  // its time waiting (on its database, sockets, child processes and timers), so a second worker uses what one leaves
  // idle; the files are independent (their own directories, schemas and ports). Fixed rather than per core, so that
  // a machine with many cores does not run more files at once than a PostgreSQL server's connections allow.
  maxWorkers: 2,
};
