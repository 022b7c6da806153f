import { DatabaseConfigError } from "./database-url";
import { describeTarget, ensureDatabase } from "./ensure-database";
import { warmLineageLayout } from "../lineage/get-lineage-layout";
import { warmUnitStates } from "../units/warm-unit-states";
import { configuredFoldMaxWaitMs, configuredFolding } from "../ingestion/fold-pending";
import { readNotifyConfig } from "../notify/notify-config";

/**
 * Server start: a fresh database of either kind is migrated automatically; a bad DATABASE_URL
 * is one line naming the variable, and the process exits 2 instead of serving errors.
 */
export async function prepareDatabaseOrExit(): Promise<void> {
  try {
    const folding = configuredFolding(); // a bad REPARO_INGEST_FOLD stops the start, naming it
    const maxWaitMs = configuredFoldMaxWaitMs(); // and so does a bad REPARO_FOLD_MAX_WAIT_SECONDS
    readNotifyConfig(); // and a bad REPARO_NOTIFY_WEBHOOK_URL, REPARO_SMTP_URL or REPARO_SMTP_FROM: notices would go nowhere
    const { target, result } = await ensureDatabase();
    if (folding === "deferred")
      console.log(
        `reparo: deferred folding: events are acknowledged once stored, their runs and publishes written by the fold job ${maxWaitMs > 0 ? `(held back at most ${maxWaitMs / 1000} s while events are arriving)` : "at once"}`,
      );
    if (result.applied.length) console.log(`reparo: ${describeTarget(target)}: applied ${result.applied.join(", ")}`);
    // The lineage first: its compile is short and its layout then runs on other threads, while
    // the unit states hold this thread for seconds on a big ledger.
    warmLineageLayout();
    warmUnitStates();
  } catch (e) {
    console.error(`reparo: ${e instanceof DatabaseConfigError ? e.message : (e as Error).message}`);
    process.exit(2);
  }
}
