import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The web app's layers, as .dependency-cruiser.cjs checks them: a feature imports no other
 * feature and nothing of the app shell (app/); components/ and lib/ import neither. The web app
 * imports by relative path (no alias), so the patterns depend on how deep a file sits: from a
 * file `depth` folders below src/, `../` taken depth − 1 times reaches features/ (a feature's
 * sibling), taken depth times reaches src/.
 */
function webLayerRules() {
  const up = (times) => `^(\\.\\./){${times}}`;
  const intoShell = (depth) => ({
    regex: `${up(depth)}(app|features)(/|$)`,
    message:
      'The app shell (app/) composes the features: features, components/ and lib/ import neither app/ nor features/ by way of src/.',
  });
  const intoOtherFeature = (depth) => ({
    regex: `${up(depth - 1)}[^./]`,
    message:
      'Features stand alone: move what two features share to components/ or lib/, or compose them in app/.',
  });
  const blocks = [];
  for (let depth = 1; depth <= 5; depth += 1) {
    const below = (area) => `packages/web/src/${area}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`;
    blocks.push({
      files: [below('components'), below('lib')],
      rules: { 'no-restricted-imports': ['error', { patterns: [intoShell(depth)] }] },
    });
    if (depth >= 2) {
      blocks.push({
        files: [below('features')],
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: [intoOtherFeature(depth), intoShell(depth)] },
          ],
        },
      });
    }
  }
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'bench/.sites/**',
      'bench/results/**',
      'corpus/sites/**',
      // Doxygen's own output, checked in unchanged (a real script-built documentation page).
      'packages/engine/test-sites/render/doxygen-treeview/html/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', '*.cjs', '*/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The render test apps (issue 35) run in the browser.
    files: ['packages/engine/test-sites/render/*/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...webLayerRules(),
  {
    // Plain JavaScript build and start scripts: syntax and core rules only, no type information.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests assert on loosely typed JSON from real HTTP answers.
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
