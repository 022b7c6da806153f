import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Why Reparo reads Dagster itself rather than through the community OpenLineage integration
 * (issue 31, item 1): what dagster-openlineage 0.2.1's sensor sent for the lab pipeline against
 * the real Dagster 1.13.27 (test/fixtures/peers/dagster/community/), two runs of lab_orders —
 * d7f6ce14 (2026-08-16, whole) and a9976b0c (2026-08-17, stg_orders failed) — and one of
 * running_balance (afe760c0). Each finding below is one Reparo cannot repair without.
 */
interface Event {
  eventType: string;
  job: { namespace: string; name: string };
  run: { runId: string; facets: Record<string, { message?: string; run?: { runId: string } } | undefined> };
  outputs?: { name: string; outputFacets?: Record<string, unknown> }[];
}
const FILE = path.resolve(__dirname, "../../../../test/fixtures/peers/dagster/community/dagster-openlineage-0.2.1-sensor-events.ndjson");
const events: Event[] = fs
  .readFileSync(FILE, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Event);
const of = (type: string, job: string, run: string) => events.filter((e) => e.eventType === type && e.job.name === job && e.run.runId.startsWith(run));

describe("dagster-openlineage 0.2.1 against the real Dagster: what Reparo would not learn", () => {
  it("every Dagster run is the job __ASSET_JOB: one pipeline for every asset group of the code location", () => {
    expect([...new Set(events.filter((e) => !e.run.facets.parent && e.outputs?.length === 0).map((e) => e.job.name))]).toEqual(["__ASSET_JOB"]);
  });

  it("the failed step says neither its partition nor the user code's error", () => {
    const [step] = of("FAIL", "__ASSET_JOB.stg_orders", "01a2435e");
    expect(step!.run.facets.errorMessage).toBeUndefined();
    expect(step!.outputs ?? []).toEqual([]);
    const [asset] = of("FAIL", "stg_orders", "a9976b0c");
    expect(asset!.run.facets.errorMessage?.message).toBe("asset planned for run, run ended before materialization");
    expect(asset!.run.facets.nominalTime).toBeUndefined();
    expect(asset!.outputs!.map((o) => o.outputFacets)).toEqual([{}]);
  });

  it("assets that never ran (downstream of the failure) are reported failed, not blocked", () => {
    for (const asset of ["fct_orders", "revenue_daily", "finance_export"]) {
      expect(of("FAIL", asset, "a9976b0c")).toHaveLength(1);
      // Its step started in the whole run only.
      const steps = events.filter((e) => e.job.name === `__ASSET_JOB.${asset}` && e.eventType === "START");
      expect(steps.map((e) => e.run.facets.parent?.run?.runId.slice(0, 8))).toEqual(["d7f6ce14"]);
    }
  });

  it("no partition keys and no row counts: only a time window, on COMPLETE", () => {
    expect(events.flatMap((e) => (e.outputs ?? []).flatMap((o) => Object.keys(o.outputFacets ?? {})))).toEqual([]);
    expect(events.filter((e) => e.run.facets.nominalTime).map((e) => e.eventType)).toEqual(Array(7).fill("COMPLETE"));
  });
});
