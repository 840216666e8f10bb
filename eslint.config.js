// Lint: typescript-eslint's recommended rules plus the layer boundaries of docs/decisions.md ("Layout"),
// which otherwise hold only by discipline. `npm run lint`; `npm test` runs it first.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'web/dist/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Tests reach into JSON answers with `any`; production code is type-checked by tsc --noEmit.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The shared catalogue and constants: imported as values by server/, drivers/ and web/, so it
    // depends on none of them and on no package (it runs in the browser too).
    files: ['common/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        { group: ['**/server/**', '**/drivers/**', '**/web/**'], message: 'common/ imports nothing from server/, drivers/ or web/.' },
        { regex: '^[^.]', message: 'common/ is dependency-free: no packages.' },
      ),
    },
  },
  {
    // Hardware knows nothing of the gateway or the dashboard.
    files: ['drivers/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        { group: ['**/server/**', '**/web/**', 'fastify', '@fastify/*', 'react'], message: 'drivers/ imports nothing from server/ or web/ (docs/decisions.md, Layout).' },
      ),
    },
  },
  {
    // The dashboard takes the wire contract's types from the server, and nothing else.
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        { group: ['**/server/**', '!**/server/contract', '!**/server/contract/**'], message: 'web/ imports only types from server/contract.' },
        { group: ['**/server/contract', '**/server/contract/**'], allowTypeImports: true, message: 'web/ imports server/contract as types only (import type).' },
        { group: ['**/drivers/**', 'fastify', '@fastify/*', 'better-sqlite3', 'drizzle-orm', 'drizzle-orm/*'], message: 'web/ runs in the browser: no server or hardware modules.' },
      ),
    },
  },
  {
    // The domain (services, repos, rules, safety) never speaks HTTP: it throws DomainErrors, and the one
    // error handler maps them. Routes, features and transport adapters are the HTTP side.
    files: ['server/**/*.ts'],
    ignores: [
      'server/app.ts',
      'server/gateway.ts',
      'server/main.ts',
      'server/features.ts',
      'server/http/**',
      'server/realtime/**',
      'server/**/routes.ts',
      'server/**/*-routes.ts',
      'server/**/feature.ts',
      'server/**/*-feature.ts',
      'server/**/guard.ts',
      'server/**/ws-command.ts',
      'server/**/strict-body.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        { group: ['**/http/**', 'fastify', '@fastify/*'], allowTypeImports: false, message: 'The domain never imports HTTP: throw a DomainError (server/domain/errors.ts).' },
        { group: ['**/web/**'], message: 'server/ does not import the dashboard.' },
      ),
    },
  },
);
