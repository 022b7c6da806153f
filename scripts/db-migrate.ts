// npm run db:migrate — applies pending migrations to the database DATABASE_URL names (or the
// embedded default ./data/reparo.db). A refused or failed migration, or another process's
// migration lock held past REPARO_MIGRATION_LOCK_WAIT_SECONDS, is one line and exit 1.
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { MigrationError } from "@/lib/server/db/migrate";
import { runCli } from "./run-cli";

runCli(async () => {
  try {
    const { target, result } = await ensureDatabase();
    const applied = result.applied.length ? result.applied.join(", ") : "none pending";
    console.log(`${describeTarget(target)}: applied ${applied} (${result.alreadyApplied.length} already applied)`);
  } catch (e) {
    if (!(e instanceof MigrationError)) throw e;
    console.error(`reparo: ${e.message}`);
    process.exit(1);
  }
});
