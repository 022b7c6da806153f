import { createDb } from "../db/client";
import { resolveDatabaseTarget } from "../db/database-url";
import { recoverInterruptedRepairs } from "./recover-interrupted-repairs";

/**
 * The startup hook: repairs left running by a console process that is gone are marked
 * interrupted before this process serves anything. A short-lived client is used so the
 * process-wide one is still opened lazily, on the first request.
 */
export async function recoverAtStartup(): Promise<void> {
  const db = createDb(resolveDatabaseTarget());
  try {
    const recovered = await recoverInterruptedRepairs(db);
    if (recovered.length) console.log(`reparo: marked ${recovered.length} repair run(s) interrupted: ${recovered.join(", ")}`);
  } catch (e) {
    console.error(`reparo: repair recovery at startup failed: ${(e as Error).message}`);
  } finally {
    await db.$disconnect();
  }
}
