// npm run demo:load — loads the demo world into the database DATABASE_URL names (or the
// embedded default ./data/reparo.db), replacing an earlier demo. Every row comes from running
// the demo pipelines' task code through the local executor.
import { createDb } from "@/lib/server/repositories/database";
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { loadDemo } from "@/lib/server/demo/load-demo";
import { runCli } from "./run-cli";

runCli(async () => {
  const started = performance.now();
  const { target } = await ensureDatabase();
  const db = createDb(target);
  try {
    const s = await loadDemo(db);
    const attempts = Object.entries(s.attempts)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ");
    console.log(`${describeTarget(target)}: demo world loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`  ${s.runs} runs; attempts: ${attempts}`);
    console.log(`  ${s.publishes} publishes, ${s.warehouseRows} warehouse rows, ${s.deliveries} external deliveries, ${s.invalidKeys} invalid keys`);
  } finally {
    await db.$disconnect();
  }
});
