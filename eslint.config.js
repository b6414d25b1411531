import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Feature modules: each is used by the others only through its index.ts. */
const FEATURES = ['files', 'token', 'webhooks', 'catalog', 'health', 'secrets'];

/** Imports of another feature's internals (anything but its index.js), from a file `depth` folders below src/. */
function deepImportsOf(features) {
  return {
    regex: `^(\\./|(\\.\\./)+)(${features.join('|')})/(?!index\\.js$)`,
    message: 'Import another feature only through its index.ts (its public surface).',
  };
}

const boundaries = [
  // A feature reaches another only through that one's index.ts.
  ...FEATURES.map((feature) => ({
    files: [`src/${feature}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [deepImportsOf(FEATURES.filter((other) => other !== feature))] }],
    },
  })),
  // The application root composes features through their index.ts.
  { files: ['src/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [deepImportsOf(FEATURES)] }] } },
  // Lower layers know no feature at all.
  {
    files: ['src/{common,config,database,redis}/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${FEATURES.join('|')})/`,
              message: 'common, config, database and redis are below the features: they must not import them.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bench/**',
      'dist-test/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'eslint.config.js',
      'jest.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  ...boundaries,
);
