import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * ESLint (with typescript-eslint) and Prettier instead of a native-binary linter: the package
 * mirror this project is built from carries only some platforms' native builds, and a lockfile
 * that misses optional platform packages fails `npm ci`.
 */
export default tseslint.config(
  {
    ignores: ['node_modules/', 'cdk.out/', 'clients/', 'demo-static/data/', 'test-artifacts/', 'coverage/'],
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
  {
    files: ['demo-static/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
