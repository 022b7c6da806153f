import type { Actor } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { ConflictError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { repairRunsOfIncident } from "../repositories/repair/repair-runs";
import { cancelRepairRun } from "./stop-repair-run";
import { isActiveRun } from "@/lib/domain/repair-run-lifecycle";

/**
 * POST /api/v1/incidents/{id}/cancel-repair: the operator stops the incident's running repair.
 * From the request on nothing more is sent or started; the wave in flight is stopped in its
 * orchestrators and the run ends `cancelled`, the incident on to validation (stop-repair-run.ts
 * cancelRepairRun) — by this request, or by the console whose slice holds the run right now. The answer lists each stop
 * request and says which the orchestrator did not confirm, so the operator knows where to look.
 */
export async function cancelRepair(id: string, body: { reason: string }, actor: Actor, db: Db = getDb()) {
  await requireIncident(db, id, "cancel_repair");
  const run = (await repairRunsOfIncident(db, id)).at(-1);
  if (!run || !isActiveRun(run.status)) throw new ConflictError(`incident ${id} has no repair running`);
  const { calls, cancelled, pending } = await cancelRepairRun(db, run.id, { actor, reason: body.reason });
  if (!cancelled && !pending) throw new ConflictError(`repair #${run.repairNumber} (run ${run.id}) ended before it could be cancelled`);
  const unconfirmed = calls.filter((c) => c.status === null || c.status >= 400);
  return {
    ok: true as const,
    runId: run.id,
    repairNumber: run.repairNumber,
    // `cancelling`: the console running it has been told and stops it at its next step (within seconds).
    status: pending ? ("cancelling" as const) : ("cancelled" as const),
    stopRequests: calls.map((c) => ({ orchestrator: c.orchestrator, method: c.method, url: c.url, status: c.status })),
    unconfirmed: unconfirmed.map(
      (c) =>
        `${c.orchestrator} ${c.method} ${c.url}: ${c.status === null ? `not reached${c.error ? ` (${c.error})` : ""}` : `answered ${c.status}`} — check what still runs there`,
    ),
  };
}
