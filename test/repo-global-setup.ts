import crypto from "node:crypto";

/**
 * Names this run of the repository tests, so its PostgreSQL databases share a prefix: their drops
 * are not waited for (test-database.ts), and what a worker left is dropped here at the end. Other
 * runs on the same server (another checkout's tests) keep theirs.
 */
export default function setup(): () => Promise<void> {
  const run = `r${crypto.randomBytes(3).toString("hex")}`;
  process.env.REPARO_TEST_RUN = run;
  return async () => {
    const { dropRunDatabases } = await import("../lib/server/testing/test-database");
    await dropRunDatabases(`reparo_test_${run}_`);
  };
}
