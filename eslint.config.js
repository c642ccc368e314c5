import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * ESLint (with typescript-eslint) and Prettier instead of a native-binary linter: the package
 * mirror this project is built from carries only some platforms' native builds, and a lockfile
 * that misses optional platform packages fails `npm ci`.
 */
/** What no file under shared/ may import (the rule's patterns, shared by the blocks below). */
const SHARED_PATTERNS = [
  {
    group: ['@aws-sdk/*', 'aws-lambda', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
    message: 'shared/ has no AWS import: put the adapter in functions/.',
  },
  {
    group: ['\\#functions/*', '\\#local/*', '\\#infra/*', '**/functions/**', '**/local/**', '**/infra/**'],
    message: 'shared/ never imports the functions, the local runtime or infra.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'clients/',
      'generated/',
      'demo-static/data/',
      'console/dist/',
      'test-artifacts/',
      'coverage/',
      'reports/',
      '.stryker-tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The layering, as a failing check: the domain and the rest of shared/ know nothing of AWS, the
  // functions or the runtimes that host them; the functions never reach into infra/ or local/.
  // Patterns are gitignore-style, where a leading `#` starts a comment: subpath imports are
  // written `\\#local/*` (tests/unit/layering.test.ts proves each rule fires).
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: SHARED_PATTERNS }] },
  },
  // The API contract and the domain hold no demo content: the demo imports them, never the
  // reverse (its routes' records and bodies join the OpenAPI document in shared/demo/openapi.ts).
  {
    files: ['shared/api/**/*.ts', 'shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...SHARED_PATTERNS,
            {
              group: [
                '\\#shared/demo',
                '\\#shared/demo/*',
                '**/shared/demo',
                '**/shared/demo/*',
                '../demo/*',
                '../../demo/*',
              ],
              message: 'shared/api and shared/domain never import the demo: the demo imports them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['functions/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '\\#local/*',
                '\\#infra/*',
                '**/local/**',
                '**/infra/**',
                'aws-cdk-lib',
                'aws-cdk-lib/*',
              ],
              message: 'functions/ never imports the local runtime or infra.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['demo-static/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  // The operator console runs in the browser and reaches the API only through the generated client
  // (docs/decisions.md, "The operator console"): no fetch of its own but its config.json.
  {
    files: ['console/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '\\#functions/*',
                '\\#local/*',
                '\\#infra/*',
                '**/functions/**',
                '**/local/**',
                '**/infra/**',
                '@aws-sdk/*',
              ],
              message:
                'The console is a client of the public API: it imports the generated client, never the service.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'localStorage', message: 'The token lives in memory and sessionStorage only.' },
        { name: 'XMLHttpRequest', message: 'Call the API through the generated client.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'document', property: 'cookie', message: 'The console keeps nothing in cookies.' },
        {
          object: 'window',
          property: 'localStorage',
          message: 'The token lives in memory and sessionStorage only.',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
