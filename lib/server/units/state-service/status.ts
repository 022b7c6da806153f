import type { StatesStatus } from "@/lib/contracts/units";
import { changesBehind } from "@/lib/domain/change-watermark";
import type { Db } from "../../repositories/database";
import { pendingFoldLag } from "../../repositories/ingestion/pending-folds";
import { lastUnitChange } from "../../repositories/units/unit-changes";
import { stateOf } from "./service-state";
import type { UnitStateSnapshot } from "./unit-state-snapshot";

/**
 * Where the states stand, as the read APIs say it (StatesStatusSchema): still computing, being
 * refreshed, or behind events accepted and not folded yet (deferred folding).
 */
export async function statusOf(db: Db, snapshot: UnitStateSnapshot, now = new Date()): Promise<StatesStatus> {
  const lag = await pendingFoldLag(db);
  return {
    computing: snapshot.computing,
    refreshing: snapshot.refreshing,
    unfolded:
      lag.events > 0
        ? { events: lag.events, oldestSeconds: Math.max(0, Math.round((now.getTime() - (lag.oldestAcceptedAt?.getTime() ?? now.getTime())) / 1000)) }
        : null,
  };
}

/** How far this instance's states are behind the change log (0 = caught up; null = not computed yet). */
export async function unitStateLag(db: Db): Promise<number | null> {
  const entry = stateOf(db).entry;
  if (!entry) return null;
  return changesBehind(entry.watermark, await lastUnitChange(db));
}
