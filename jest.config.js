/** Jest runs in native ESM mode: the NestJS 12 packages are ES modules only. */
const tsJest = ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }];

const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
  rootDir: '.',
};

export default {
  projects: [
    // scripts/: the plain-JavaScript launcher's unit specs (native ES modules, not transformed).
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.mjs'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
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
};
