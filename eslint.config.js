// @ts-check
// Lint for the whole tree; `npm run lint` (part of `npm test`) runs it with Prettier's check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerBoundaries } from './lint/layer-boundaries.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'reports/', 'scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { veriport: { rules: { 'layer-boundaries': layerBoundaries } } },
    rules: {
      'veriport/layer-boundaries': 'error',
      // Prettier wraps code at 120; this holds comments and the lines it cannot break to the same width.
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      // node:test's test() and describe() return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The browser apps (web/) are typed against the DOM, in their own project.
    files: ['web/**/*.ts'],
    languageOptions: { parserOptions: { project: './web/tsconfig.json' } },
  },
  {
    // A test states what it expects with assert and then reads the value: `!` there is the assertion.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
