// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A tenant is made by access/ alone: outside it a statement's tenant comes from a caller
 * (AccessScope.tenant, ScopedData.tenant, tenantOf(identity)) or from a named system
 * scope (systemScope(purpose).tenant), each of which a review can find.
 */
const ISSUED_BY_ACCESS = {
  group: ['**/access/access.tenant'],
  importNames: ['issueTenant'],
  message: 'Only access/ makes a tenant: take the scope’s, or a named systemScope(…)’s.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  eslint.configs.recommended,
  // Type-aware: floating promises, unsafe `any`, awaits of non-promises and the like.
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // One way to reach the database: statements are sent by src/database/, the repositories
    // (their SQL snapshotted in src/queries/), the entity store and the FETCH executor;
    // every other file, an application module's too, calls them.
    files: ['src/**/*.ts', 'examples/**/*.ts'],
    ignores: [
      'src/database/**',
      'src/**/*.repository.ts',
      'src/entity/entity.store.ts',
      'src/fetch/fetch.executor.ts',
      'src/**/*.spec.ts',
      // Migrations (<timestamp>-<Name>.ts): SQL by nature, run by TypeORM.
      '**/[0-9]*-*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              importNames: ['DataSource', 'EntityManager', 'QueryRunner', 'Repository'],
              message: 'Reach the database through a repository (or Transactions), not TypeORM.',
            },
            {
              name: '@nestjs/typeorm',
              importNames: ['InjectDataSource', 'InjectEntityManager', 'InjectRepository'],
              message: 'Reach the database through a repository (or Transactions), not TypeORM.',
            },
            { name: 'pg', message: 'Reach the database through src/database/.' },
          ],
          patterns: [
            {
              group: ['**/database/sql.service'],
              message: 'Only repositories (*.repository.ts) send SQL.',
            },
            ISSUED_BY_ACCESS,
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL belongs in a repository (*.repository.ts).',
        },
        {
          selector: 'CallExpression[callee.name="managerOf"]',
          message: 'A transaction’s connection is for repositories only.',
        },
      ],
    },
  },
  {
    // The files that send SQL may take a tenant, never make one (ISSUED_BY_ACCESS).
    files: [
      'src/database/**/*.ts',
      'src/**/*.repository.ts',
      'src/entity/entity.store.ts',
      'src/fetch/fetch.executor.ts',
    ],
    ignores: ['src/**/*.spec.ts', '**/[0-9]*-*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ISSUED_BY_ACCESS] }] },
  },
  {
    // One authority for who may do what: whether a caller is an administrator is access/'s
    // to weigh (AccessScope, its named privileges), never a service's, a hook's or a route's.
    // The files that carry the flag as data (a user row to an Identity, a new user's input)
    // are the exceptions.
    files: ['src/**/*.ts', 'examples/**/*.ts'],
    ignores: [
      'src/access/**',
      'src/auth/identity.mapper.ts',
      'src/directory/user.service.ts',
      'src/directory/user.repository.ts',
      'src/cli/**',
      'src/**/*.spec.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['isAdministrator', 'isAdmin'].map((property) => ({
          property,
          message:
            'Ask access/ (a @Requires privilege, scope.holds(…)), not whether the caller is an administrator.',
        })),
      ],
    },
  },
  {
    // Tests read response bodies and fixtures, untyped JSON by nature, and their async
    // stubs keep the shape of what they stand in for.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The benchmarks and test helpers run as child processes are plain CommonJS scripts:
    // linted so a missing import fails here, not halfway through a run.
    files: ['bench/**/*.js', 'test/**/*.js', '*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
