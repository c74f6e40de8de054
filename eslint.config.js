import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The road of web/src, one way only (STYLE.md):
 *   columns (the contract) ◀ engine          columns ◀ profile-logic (pure) ◀ selectors ◀ components ◀ app
 *   columns ◀ sql (DuckDB over the page's Arrow tables, Parquet export; like engine, reached from app only)
 * `restrict(dir, ...)` forbids a folder's files to import the folders named.
 */
const restrict = (dir, ...forbidden) => ({
  files: [`web/src/${dir}/**/*.{ts,tsx}`],
  ignores: [`web/src/${dir}/**/__tests__/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((f) => ({ regex: `(^|/)${f}(/|$)`, message: `web/src/${dir} must not import ${f}/ (see eslint.config.js)` })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist', 'web/src/engine/pkg', 'e2e/artifacts', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs'], languageOptions: { globals: { ...globals.node } } },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: true }, 'import-x/extensions': ['.ts', '.tsx'] },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  restrict('columns', 'engine', 'sql', 'profile-logic', 'selectors', 'components', 'app'),
  restrict('profile-logic', 'engine', 'sql', 'selectors', 'components', 'app'),
  restrict('engine', 'sql', 'profile-logic', 'selectors', 'components', 'app'),
  restrict('sql', 'engine', 'profile-logic', 'selectors', 'components', 'app'),
  restrict('selectors', 'engine', 'sql', 'components'),
  restrict('components', 'engine', 'sql', 'app'),
);
