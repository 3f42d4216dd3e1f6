// ESLint: typescript-eslint's recommended rules, import hygiene, and the one architectural rule a
// linter can hold: the domain imports nothing outside src/domain (no I/O, no packages). Formatting is
// Prettier's (eslint-config-prettier turns the overlapping rules off). Import cycles are checked by
// madge in `npm run lint`, which also sees type-only imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** Pure computations the domain may use: IBAN/BIC rules, RFC 8785 canonical JSON. */
const PURE_PACKAGES = ['ibantools', 'canonicalize'];
/** Hashing is computation, not I/O (the audit hash chain). */
const PURE_BUILTINS = ['node:crypto'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**', '.tap/**', 'examples/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // Tests and adapters talk to untyped wire data; `any` there is a deliberate boundary.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // The webhook URL policy and header checks match control characters on purpose.
      'no-control-regex': 'off',
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
    },
  },
  {
    // The pure core: nothing from outside src/domain, and no package or Node built-in except the
    // few pure computations named here (no I/O, no state; docs/decisions.md, "Packages in the domain").
    files: ['src/domain/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/domain',
              from: '.',
              except: ['./src/domain', ...PURE_PACKAGES.map((p) => `./node_modules/${p}`)],
              message: 'src/domain imports only from src/domain.',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?!(${[...PURE_PACKAGES, ...PURE_BUILTINS].join('|')})$)[^.]`,
              message: 'src/domain imports no package and no Node built-in: it has no I/O.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
