import type { Actor } from "../../auth/roles";
import type { Db } from "../../db/client";
import { abandonIncident } from "../../incidents/abandon-incident";
import { openIncident } from "../../incidents/open-incident";
import { pairsHeldByOpenIncidents } from "../../repositories/incidents/incidents";
import { cleanUnit } from "../clean-unit";
import { confirmPlan } from "../confirm-plan";
import { recordScope } from "../record-scope";

export const OPERATOR: Actor = { id: "demo-operator", role: "operator", source: "demo", namespaces: [] };
export const COMMANDER: Actor = { id: "demo-commander", role: "commander", source: "demo", namespaces: [] };
export const VIEWER: Actor = { id: "demo-viewer", role: "viewer", source: "demo", namespaces: [] };
export const STG = "job:orders:stg_orders";

/**
 * The demo's stg_orders 2026-08-17 incident, scoped with 2026-08-23, cleaned and planned: ready to
 * launch. A fresh one each time: an earlier test's incident still holding these units (one open
 * incident per root cause) is abandoned first, as a commander would close a finished exercise.
 */
export async function plannedIncident(db: Db, now = new Date()): Promise<string> {
  for (const held of await pairsHeldByOpenIncidents(db))
    if (held.failedPairs.some((p) => p.nodeId === STG && p.units.some((u) => u === "2026-08-17" || u === "2026-08-23")))
      await abandonIncident(held.id, "a new exercise on the same failure starts from a fresh incident", COMMANDER, now, db);
  const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" }, OPERATOR, now, db);
  await recordScope(
    incident.id,
    { reason: "closure reviewed; running_balance also waits on 2026-08-23", addPairs: [{ taskNodeId: STG, units: ["2026-08-23"] }] },
    OPERATOR,
    now,
    db,
  );
  for (const unitKey of ["2026-08-17", "2026-08-23"])
    await cleanUnit(incident.id, { taskNodeId: STG, unitKey, reason: "remove the partial append before re-running" }, OPERATOR, now, db);
  await confirmPlan(
    incident.id,
    { strategy: "targeted_with_closure", replay: [], parameterOverrides: {}, reason: "repair the failed days and everything built on them" },
    OPERATOR,
    now,
    db,
  );
  return incident.id;
}

/**
 * The demo repaired without its other root cause: validation passes every unit except the
 * running balance built on the duplicated stg_orders 2026-08-10 (suspect, as the matrix says),
 * which only adding that unit to the repair clears (repair-journey.repo.test.ts does).
 */
export function failingOnlyOnTheDuplicatedChain(v: { units: { name: string; unitKey: string; state: string; passed: boolean }[] }): string[] {
  return v.units.filter((u) => !u.passed && !(u.name === "running_balance" && u.state === "suspect")).map((u) => `${u.name} ${u.unitKey} ${u.state}`);
}
