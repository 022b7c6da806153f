import type { OpenFailure } from "@/lib/contracts/overview";
import { getDb, type Db } from "../repositories/database";
import { describeOpenFailures } from "../units/describe-open-failures";
import { getUnitStateSnapshot } from "../units/state-service";

/**
 * The current failures the lineage page offers to select: units in state "failed" (latest
 * attempt failed, nothing published since), the overview's definition, from the one unit-state
 * service every screen reads.
 */
export async function listCurrentFailures(now: Date, db: Db = getDb()): Promise<OpenFailure[]> {
  return describeOpenFailures(db, (await getUnitStateSnapshot(db, now)).datasets);
}
