import { createSuiteDatabase } from './helpers/suite-database';

/** Before the suite's own hooks: the database its apps and child processes use. */
beforeAll(async () => {
  process.env.ATRIUM_TEST_DATABASE_URL = await createSuiteDatabase();
});
