// One lint setup for the whole workspace: type-aware rules everywhere, plus the import
// boundaries ARCHITECTURE.md describes (the server never sees core; core never sees the app).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const coreImports = {
  group: ['@docket/core', '@docket/core/*', '**/core/src/*', '**/core/src/**'],
  message: 'The server is blind: it must not import packages/core (crypto, merge, content).',
};
const serverImports = {
  group: ['@docket/server', '@docket/server/*'],
  message: 'The app talks to the server over HTTP only.',
};
const dexieImports = {
  group: ['dexie', 'dexie-react-hooks'],
  message:
    "Only packages/app/src/local-store/ talks to Dexie: read through its live-*.ts hooks (useLiveRead) and write through core's commands.",
};
// Other packages reach core through its folders' index files only (core's `exports` map says the
// same to TypeScript); inside core, files import each other by path, never through an index.
const coreDeepImports = {
  group: ['@docket/core/*/*', '!@docket/core/test-support/*', '**/core/src/**'],
  message: "Import a core folder's entry point (@docket/core/<folder>), not its files.",
};
const coreBarrelsInsideCore = {
  group: ['@docket/core', '@docket/core/*', '**/index.ts'],
  message: 'Inside core, import the file itself by relative path; index.ts is for other packages.',
};
// Ionic React names whose element would otherwise load with the first screen: `@ionic/react` is
// one module, so whatever the app uses of it anywhere comes with it (packages/app/src/ui/ionic/).
const ionicLazyElements = {
  name: '@ionic/react',
  importNames: [
    'useIonAlert',
    'useIonToast',
    'IonToggle',
    'IonProgressBar',
    'IonFooter',
    'IonNote',
    'IonText',
    'IonList',
    'IonItem',
    'IonInput',
    'IonInputPasswordToggle',
    'IonModal',
    'useIonModal',
  ],
  message:
    "Import it from packages/app/src/ui/ionic/ (a hook from ui/lazy-overlays.ts): from '@ionic/react' its code loads before /login's first paint.",
};
const appImports = {
  group: ['@docket/app', '@docket/app/*', '**/app/src/**', '@docket/server', '@docket/server/*'],
  message: 'Dependencies point protocol <- core <- app; protocol <- server.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.bundle/**',
      // The native shells: generated projects, and the web build copied into them.
      'packages/app/android/**',
      'packages/app/ios/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'packages/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
  {
    files: ['packages/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [coreImports, appImports] }],
    },
  },
  {
    files: ['packages/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@docket/*', 'react', 'dexie', 'fastify'],
              message: 'protocol depends on nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appImports,
            coreBarrelsInsideCore,
            {
              group: ['react', 'react-dom', 'dexie', '@ionic/*', 'fastify'],
              message: 'core is platform-free: no React, no IndexedDB, no server.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { paths: [ionicLazyElements], patterns: [coreDeepImports, serverImports, dexieImports] },
      ],
    },
  },
  {
    // Where those Ionic names are made: their types come from '@ionic/react', nothing more.
    files: ['packages/app/src/ui/ionic/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [coreDeepImports, serverImports, dexieImports] },
      ],
    },
  },
  {
    // The one room that talks to the database (packages/app/src/local-store/README.md).
    files: ['packages/app/src/local-store/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [ionicLazyElements], patterns: [coreDeepImports, serverImports] },
      ],
    },
  },
  {
    files: ['packages/cli/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [coreDeepImports] }],
    },
  },
  {
    // Every browser test watches that each screen it reaches is painted (e2e/fixtures.ts).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message:
                "Import test and expect from './fixtures.ts': its test checks that every screen is painted.",
            },
          ],
        },
      ],
    },
  },
);
