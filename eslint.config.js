import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname;

/** Deliberately bad code that scripts/src/lint.test.ts lints on its own to prove the boundary rules fire. */
export const lintFixtures = 'scripts/lint-fixtures';

/**
 * One zone per folder under `featuresDir` (relative to the repository root): a feature may import from
 * itself, client/src/components, client/src/lib and packages, never from another feature. Read from the
 * disk each run, so a new feature folder is covered without editing this file.
 */
export function featureZones(featuresDir) {
  return fs
    .readdirSync(path.join(root, featuresDir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      target: `./${featuresDir}/${name}`,
      from: `./${featuresDir}`,
      except: [`./${name}`],
      message: `Features do not import each other: move what '${name}' needs to client/src/components or client/src/lib.`,
    }));
}

/**
 * A feature never imports from the app shell (`appDir`: providers, router, layout); what features
 * share with it lives in client/src/components or client/src/lib.
 */
export function appShellZone(featuresDir, appDir) {
  return {
    target: `./${featuresDir}`,
    from: `./${appDir}`,
    message: `Features do not import from the app shell (${appDir}): move what they share to client/src/components or client/src/lib.`,
  };
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/test-output/**', 'data/**', '**/.turbo/**', `${lintFixtures}/**`] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Module boundaries: no import cycles anywhere in the workspace's TypeScript (the @site/* packages
    // resolve through their package.json exports to .ts sources), no imports between client features, and
    // none from a feature into the app shell.
    files: ['**/*.{ts,tsx,mts}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
          conditionNames: ['types', 'import', 'module', 'node', 'default'],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...featureZones('client/src/features'),
            appShellZone('client/src/features', 'client/src/app'),
            ...featureZones(`${lintFixtures}/features`),
            appShellZone(`${lintFixtures}/shell/features`, `${lintFixtures}/shell/app`),
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['game-engine/src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded PRNG in the game state.' },
        { object: 'Date', property: 'now', message: 'The engine has no clock.' },
        { object: 'performance', property: 'now', message: 'The engine has no clock.' },
      ],
    },
  },
);
