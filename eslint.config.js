// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import boundaries: the tree is the architecture, and the linter keeps it that way. */
const forbid = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

/**
 * The SFU's files at one depth (`up`: the relative prefix that leaves the SFU's folder from there)
 * may leave it only for logging, limits and protocol/; tests and `testing/` also for voice tokens.
 */
const sfuBoundary = (files, tests, up) => {
  const allowed = '\\.\\./(logging|limits)/|\\.\\./\\.\\./\\.\\./protocol/';
  const message =
    'The SFU is an engine: it imports only its own files, logging, limits and protocol/; the server passes in what it needs and listens to its events.';
  const rule = (extra) => ({
    'no-restricted-imports': ['error', { patterns: [{ regex: `^${up}(?!${extra}${allowed})`, message }] }],
  });
  return [
    { files, ignores: tests, rules: rule('') },
    { files: tests, rules: rule('voice-token\\.js$|') },
  ];
};

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
  // The built-in SFU is an engine: the server hands it what it needs (a token verifier, `admit`) and
  // listens to its events, so it imports only its own files, logging, limits and protocol/. Its
  // tests and `testing/` may also mint voice tokens.
  ...sfuBoundary(['server/src/voice/sfu/*.ts'], ['server/src/voice/sfu/*.test.ts'], '\\.\\./'),
  ...sfuBoundary(
    ['server/src/voice/sfu/*/**/*.ts'],
    ['server/src/voice/sfu/*/**/*.test.ts', 'server/src/voice/sfu/testing/**/*.ts'],
    '\\.\\./\\.\\./',
  ),
  {
    files: ['protocol/**/*.ts'],
    rules: forbid(['**/client/**', '**/server/**'], 'protocol/ is the shared contract and depends on nothing of either side.'),
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
