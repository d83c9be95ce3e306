/**
 * Two projects: unit tests beside the code (`src/**\/*.spec.ts`) and e2e suites in
 * `test/` that boot the real app against a real PostgreSQL (embedded unless
 * TEST_DATABASE_URL names a server). The embedded server is started once, in the global
 * setup; each e2e suite gets a database of its own on it (test/setup-suite-database.ts).
 */
/**
 * TypeScript, and the ESM-only packages below compiled to CommonJS: Jest's VM cannot
 * require ES modules below Node 24.9 (DESIGN.md).
 */
const ESM_PACKAGES = [
  'content-disposition',
  'jose',
  'openid-client',
  'oauth4webapi',
  'oidc-provider',
  'pg-boss',
  'serialize-error',
  'non-error',
  'rrule-temporal',
];
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' } }],
};
// Skip node_modules, except those packages wherever they are nested.
const transformIgnorePatterns = [`/node_modules/(?!(.*/)?(${ESM_PACKAGES.join('|')})/)`];
// Per project: a project does not inherit it. The build copies package.json into dist/.
const modulePathIgnorePatterns = ['<rootDir>/dist/'];

const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  // The e2e suites mostly wait on PostgreSQL, a process of its own: two workers even on
  // two cores (Jest's default there is one), which halves the run; four at most, within
  // the test server's connections. On TEST_DATABASE_URL every suite shares one database,
  // and some check that it stays as it was: one worker.
  maxWorkers: process.env.TEST_DATABASE_URL
    ? 1
    : Math.min(4, Math.max(2, availableParallelism() - 1)),
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // Global only: Jest ignores testTimeout inside a project. E2e steps boot servers.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-suite-database.ts'],
    },
  ],
};
