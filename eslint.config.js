// Lint rules: typescript-eslint's recommended set over the sources, tests and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', '.keycloak/', 'data/', 'web/dist/', 'clients/build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // Lines of at most 120 characters in every file linted (docs/project-layout.md#line-width, issue 44), comments and
  // strings included: a diff and a blame read without scrolling. Only a line holding a URL or a regular expression
  // literal may run longer, since neither can be broken.
  { rules: { 'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }] } },
  // The web page runs in the browser; its own tsconfig (lib dom) checks the globals it uses.
  { files: ['web/**/*.ts'], rules: { 'no-undef': 'off' } },
);
