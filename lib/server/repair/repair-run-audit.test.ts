import { describe, expect, it } from "vitest";
import { AuditDraftSchema } from "@/lib/contracts/audit";
import type { OrchestratorCall } from "../orchestrators/port";
import { cancelSentEntry, dispatchedEntry, dispatchFailedEntry, heldBackEntry, progressEntry, type RunOnRecord } from "./repair-run-audit";

const run: RunOnRecord = { id: "run-1", repairNumber: 2, incidentId: "inc-1", launchedBy: { id: "ana", role: "operator" } };
const call: OrchestratorCall = {
  orchestrator: "airflow",
  method: "POST",
  url: "http://airflow/api/v2/dags/orders/clearTaskInstances",
  status: 200,
  ids: { dagId: "orders" },
};
const pair = (unitKey: string) => ({ taskNodeId: "task:orders.fct_orders", unitKey, wave: 1 });

describe("a repair run's audit entries", () => {
  it("count pairs in the right number", () => {
    const one = dispatchedEntry(run, { wave: 1, waves: 3, pipeline: "orders", orchestrator: "airflow", pairs: 1, held: 0, calls: [call] });
    const two = dispatchedEntry(run, { wave: 1, waves: 3, pipeline: "orders", orchestrator: "airflow", pairs: 2, held: 1, calls: [call] });
    expect(one.reason).toBe("repair #2, wave 2 of 3: 1 pair of orders sent to airflow");
    expect(two.reason).toBe("repair #2, wave 2 of 3: 2 pairs of orders sent to airflow (1 held back: they read a failed pair)");
    expect(heldBackEntry(run, 1, 3, "orders", [pair("2026-08-17")], "not dispatched: it reads a pair of this repair that failed").reason).toBe(
      "repair #2, wave 2 of 3: 1 pair of orders held back — not dispatched: it reads a pair of this repair that failed",
    );
    expect(progressEntry(run, 0, 1, [], []).reason).toBe("repair #2, wave 1 of 1: 0 calls while polling, nothing changed");
  });

  it("keep each call without its secrets and pass the audit contract", () => {
    const failed = dispatchFailedEntry(run, {
      wave: 0,
      pipeline: "orders",
      orchestrator: "airflow",
      message: "airflow answered 409",
      calls: [{ ...call, status: 409, error: "conflict" }],
    });
    expect(failed.after).toEqual({
      runId: "run-1",
      wave: 0,
      pipeline: "orders",
      orchestrator: "airflow",
      calls: [{ orchestrator: "airflow", method: "POST", url: call.url, status: 409, ids: { dagId: "orders" }, error: "conflict" }],
    });
    const held = heldBackEntry(run, 1, 3, "orders", [pair("2026-08-17"), pair("2026-08-18")], "x");
    expect(held.after).toMatchObject({ changed: [{ unitKey: "2026-08-17", status: "failed", externalId: null }, { unitKey: "2026-08-18" }] });
    const many = Array.from({ length: 12 }, (_, i) => ({ taskNodeId: "task:orders.fct_orders", unitKey: `2026-08-${10 + i}`, status: "succeeded" as const }));
    expect(progressEntry(run, 0, 1, many, []).reason).toMatch(/fct_orders 2026-08-19 succeeded and 2 more$/);
    const cancelled = cancelSentEntry(run, 0, { actor: { id: "bo", role: "operator" }, reason: "wrong plan" }, [call]);
    expect(cancelled).toMatchObject({
      actor: "bo",
      reason: "repair #2 cancelled by bo (wrong plan): what wave 1 still ran in its orchestrators was asked to stop",
    });
    expect(cancelSentEntry(run, 0, null, [call]).actor).toBe("ana");
    for (const entry of [failed, held, cancelled, progressEntry(run, 0, 1, many, [])]) expect(AuditDraftSchema.safeParse(entry).success).toBe(true);
  });
});
