// ESLint (flat config): the recommended rules plus the few that catch real bugs, with the globals of
// the realm each folder runs in (Node, the page, a Web Worker). Student submissions (fixtures,
// starters, solutions) are test data, written with mistakes on purpose: not linted. `tools/lint` runs it.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'build/**',
      'tests/artifacts/**',
      'tools/benchmark/out/**',
      'exercises/*/fixtures/**',
      'exercises/*/solution.js',
      'exercises/*/starter.js',
      'exercises/*/starter.*.js',
      'tests/fixtures/sandbox/**',
      'tests/fixtures/guide-pack/fixtures/**',
      'tests/fixtures/guide-pack/solution.js',
      'tests/fixtures/guide-pack/starter.js',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-undef': 'error',
      'no-shadow-restricted-names': 'error',
      'no-template-curly-in-string': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      // Sanitising student output means matching control characters on purpose.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The tools: executable scripts without an extension (tools/README.md); the shell ones are not JavaScript.
    files: ['tools/*'],
    ignores: [
      'tools/*.*',
      ...['bench', 'build', 'build-wasm', 'grade', 'lint', 'server', 'setup', 'test'].map((f) => `tools/${f}`),
    ],
  },
  {
    // CommonJS where a module must start without Node's ES module loader (the sandbox child).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // The page's main thread and what the page imports from wasm/; the service's launch page.
    files: [
      'web/src/**/*.js',
      'web/embed.js',
      'wasm/webgpu/browser.mjs',
      'grader/hosts/browser/host.js',
      'server/public/**/*.js',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Node scripts that hand functions to a browser (playwright's page.evaluate): both sets.
    files: [
      'tests/browser/**',
      'tests/webgpu/**',
      'tests/server/e2e.test.mjs',
      'tools/benchmark/**',
      'tools/measure-page',
      'tools/lib/chromium.mjs',
      'tools/lib/gpu-page.mjs',
    ],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Web Workers: the sandbox worker of each track.
    files: ['grader/hosts/browser/worker*.js', 'grader/tracks/*/worker.js', 'tests/fixtures/toy-track/worker.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
];
