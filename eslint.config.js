// One lint setup for the whole repository. Generated code is never linted.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One no-restricted-imports rule for the files of a layer. */
function layerRule(files, group, message) {
  return [
    {
      files: [files],
      rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'proto/gen/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.config.ts', '*/*.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Spec 000/001, Versioning: every use of an obsolete RPC or client method (STORE0002) is
      // reported, the way the .NET binding raises a compile-time diagnostic.
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  // The server's layers (docs/architecture.md): contract → transport → engines → storage. Each
  // layer imports only the ones below it; a violation fails `npm run lint`
  // (server/test/layer-rules.test.ts plants one of each).
  ...layerRule(
    'server/src/transport/**',
    ['**/storage/**'],
    'transport never imports storage: take the type from the engine that returns it',
  ),
  ...layerRule(
    'server/src/engines/**',
    ['**/transport/**', '**/http/**'],
    'engines know nothing of gRPC or HTTP',
  ),
  ...layerRule(
    'server/src/storage/**',
    ['**/engines/**', '**/transport/**', '**/http/**'],
    'storage never imports engines, transport or http',
  ),
  ...layerRule(
    'server/src/metrics/**',
    ['**/storage/**', '**/http/**', '**/transport/**', '!**/transport/metrics-interceptor.js'],
    'metrics read through the engines (StoreReadings) and know of transport only its call sink',
  ),
  ...layerRule(
    'server/src/http/**',
    ['**/transport/**', '!**/transport/index.js'],
    'http reaches transport only through transport/index.ts',
  ),
  {
    // Playwright reads a fixture's dependencies from its destructuring pattern, `{}` included.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
