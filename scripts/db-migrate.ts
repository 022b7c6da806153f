// npm run db:migrate — applies pending migrations to the database DATABASE_URL names (or the
// embedded default ./data/reparo.db).
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { runCli } from "./run-cli";

runCli(async () => {
  const { target, result } = await ensureDatabase();
  const applied = result.applied.length ? result.applied.join(", ") : "none pending";
  console.log(`${describeTarget(target)}: applied ${applied} (${result.alreadyApplied.length} already applied)`);
});
