import { loadDemo } from "../demo/load-demo";
import { TEST_DATABASE_PREFIX, createTestDatabaseFrom, type Provider, type TestDatabase } from "./test-database";

/**
 * A migrated database holding the demo world, as `loadDemo` leaves it: a copy of a template this
 * test run loads once per provider. Loading the demo took 10–30 s per database and ~60 suites
 * loaded it; a copy takes well under a second. The template is the run's own (its name carries the
 * run's prefix), so it is always what this checkout's code loads.
 */
export async function createDemoTestDatabase(provider: Provider): Promise<TestDatabase> {
  return createTestDatabaseFrom(provider, `${TEST_DATABASE_PREFIX}demo`, async (db) => {
    await loadDemo(db);
  });
}
