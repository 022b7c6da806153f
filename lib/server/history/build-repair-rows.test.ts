import { describe, expect, it } from "vitest";
import { buildRepairRows } from "./build-repair-rows";

const t = (iso: string) => new Date(iso);
const MIN = 60_000;
const DAY = 1440 * MIN;

// The demo's story: stg_orders 2026-08-17 failed in August (recorded on its demo date); someone
// opens the incident on 2026-12-02 and repairs it in minutes.
describe("buildRepairRows", () => {
  it("charges the repair from the incident's opening, not from the August failure: minutes, with the wait shown as time to detect", () => {
    const [row] = buildRepairRows({
      runs: [
        {
          id: "rep-1",
          status: "succeeded",
          repairNumber: 1,
          rootRunId: "root",
          incidentId: "inc",
          pipeline: "orders",
          startedAt: t("2026-12-02T10:02:00Z"),
          endedAt: t("2026-12-02T10:05:00Z"),
          tasks: [{ nodeId: "job:orders:stg_orders", name: "stg_orders", owner: "orders-team" }],
          pairs: 19,
          launched: { planned: 19, succeeded: 19 },
        },
      ],
      incidents: new Map([
        [
          "inc",
          {
            id: "inc",
            title: "stg_orders 2026-08-17 failed",
            status: "resolved",
            detectedAt: t("2026-08-18T02:00:00Z"),
            openedAt: t("2026-12-02T10:00:00Z"),
            resolvedAt: t("2026-12-02T10:09:00Z"),
            failedPairs: [{ nodeId: "job:orders:stg_orders", units: ["2026-08-17"] }],
            plans: [],
            validations: [t("2026-12-02T10:07:00Z")],
          },
        ],
      ]),
      failures: [{ runId: "root", taskNodeId: "job:orders:stg_orders", error: "too many connections", endedAt: t("2026-08-18T02:11:00Z") }],
    });
    expect(row).toMatchObject({
      failureAt: "2026-08-18T02:11:00.000Z",
      openedAt: "2026-12-02T10:00:00.000Z",
      timeToRepairMs: 5 * MIN,
      timeToValidateMs: 2 * MIN,
      timeToResolutionMs: 9 * MIN,
      timeToDetectMs: Date.parse("2026-12-02T10:00:00Z") - Date.parse("2026-08-18T02:11:00Z"),
    });
    expect(row!.timeToDetectMs! > 100 * DAY).toBe(true);
    expect(row).toMatchObject({ unitsRecomputed: 19, pairsPlanned: 19 });
  });

  it("counts what the Execute step counts: pairs succeeded of those launched, whoever ran them", () => {
    // A repair run in Airflow: its tasks report through Airflow's own runs, so the repair run has no attempts of its own.
    const [row] = buildRepairRows({
      runs: [
        {
          id: "rep-2",
          status: "partial",
          repairNumber: 1,
          rootRunId: "root",
          incidentId: null,
          pipeline: "orders",
          startedAt: t("2026-12-02T10:02:00Z"),
          endedAt: t("2026-12-02T10:05:00Z"),
          tasks: [],
          pairs: 0,
          launched: { planned: 14, succeeded: 11 },
        },
      ],
      incidents: new Map(),
      failures: [],
    });
    expect(row).toMatchObject({ unitsRecomputed: 11, pairsPlanned: 14 });
  });
});
