// Lint that guards the Temporal rules (run by `trl test`, and alone by `trl lint`):
// - workflow files are deterministic: no Node built-ins, and no value imports from outside
//   contracts/ and scoring/ (activity implementations reach workflows only as types);
// - no floating promises anywhere: every promise is awaited, returned or explicitly voided.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.cache/**',
      '.data/**',
      '.replay-*/**',
      'scenarios/**',
      'test/fixtures/**',
      'policy/examples/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test/describe return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'workflow code must be deterministic: no Node built-ins (do the I/O in an activity)',
          })),
          patterns: [
            {
              regex: '^\\.\\./(?!contracts/|scoring/)',
              allowTypeImports: true,
              message:
                'workflow files import values only from contracts/ and scoring/ (pure); other rooms only as types',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scoring/**/*.ts', 'contracts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'contracts/ and scoring/ are imported by workflow code: no Node built-ins',
          })),
        },
      ],
    },
  },
);
