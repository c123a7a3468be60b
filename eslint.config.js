// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import boundaries: the tree is the architecture, and the linter keeps it that way. */
const forbid = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'server/drizzle/**', 'test-results/**', 'playwright-report/**', 'data/**', '.e2e-data/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.server-tests.json'], tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify handlers and hooks are async by convention, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(['**/server/**', '../server/*'], 'The client talks to the server over HTTP and sockets only; share types through protocol/.'),
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: forbid(['**/client/**'], 'The server never imports client code; share types through protocol/.'),
  },
  {
    files: ['protocol/**/*.ts'],
    rules: forbid(['**/client/**', '**/server/**'], 'protocol/ is the shared contract and depends on nothing of either side.'),
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
