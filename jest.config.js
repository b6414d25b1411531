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
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/setup-env.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-contract.ts'],
    },
  ],
  testTimeout: 30000,
};
