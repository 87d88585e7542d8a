import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Who may import whom (tags in each project.json). Services share only libs/ and learn about
 * each other from events; the web app shares only the wire contracts with the backend.
 */
const depConstraints = [
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
  { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['*'] },
];

/** platform's own specs run on the service harness, which is built on platform: a test-only loop. */
const ignoredCircularDependencies = [['platform', 'testing']];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.js', '**/*.mjs', 'infra/k6/**', 'web/dist/**', 'web/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints, ignoredCircularDependencies }],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['web/**'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
  {
    // A lib's own specs may run on the service harness.
    files: ['libs/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: depConstraints.map((c) =>
            c.sourceTag === 'type:lib' ? { ...c, onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] } : c,
          ),
          ignoredCircularDependencies,
        },
      ],
    },
  },
  {
    // The composition root and the whole-stack tests wire the services and the gateway together.
    files: ['infra/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: ['../../services/**', '../../gateway/**', '../../../services/**', '../../../gateway/**', '../../../../services/**', '../../../../gateway/**'], depConstraints, ignoredCircularDependencies }],
    },
  },
  {
    // The browser tests also read the web's own texts, to tell one language's words from the other's.
    files: ['infra/test/browser/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: ['../../../services/**', '../../../gateway/**', '../../../web/src/**'], depConstraints, ignoredCircularDependencies }],
    },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // app/ is the composition root on top: features and core never import it.
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/app/*'], message: 'app/ is the composition root: import from core/ or shared/.' }] }],
    },
  },
  {
    // core/ (api, store, session, socket) sits below the features and knows none of them.
    files: ['web/src/core/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/*'], message: 'app/ is the composition root: core/ may not import it.' },
            { group: ['**/features/*'], message: 'core/ sits below the features: move the shared piece into core/ or shared/.' },
          ],
        },
      ],
    },
  },
);
