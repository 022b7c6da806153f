import { describe, expect, it } from "vitest";
import type { NodeId } from "./ids";
import { upstreamFindingChecks } from "./repair-checks";

const STG = "job:orders:stg_orders" as NodeId;

describe("the scope's findings carried into the plan", () => {
  it("a failed upstream unit nothing re-runs blocks, with the pairs that lift it; a duplicated one warns", () => {
    const { blockers, warnings } = upstreamFindingChecks([
      {
        task: STG,
        units: ["2026-08-10", "2026-08-23"],
        states: { "2026-08-10": "duplicate", "2026-08-23": "failed" },
        neededBy: "running_balance 2026-08-17…2026-08-25",
      },
    ]);
    expect(blockers).toEqual([
      {
        code: "waits_on_upstream",
        node: STG,
        keyRanges: [["2026-08-23", "2026-08-23"]],
        addPairs: [{ task: STG, units: ["2026-08-23"] }],
        message:
          "running_balance 2026-08-17…2026-08-25 reads stg_orders 2026-08-23 (failed), which this plan does not re-run: its run would end upstream-failed. Add it to this incident, or repair it first.",
      },
    ]);
    expect(warnings).toEqual([
      {
        code: "built_on_wrong_upstream",
        node: STG,
        keyRanges: [["2026-08-10", "2026-08-10"]],
        message:
          "running_balance 2026-08-17…2026-08-25 would be rebuilt on stg_orders 2026-08-10 (duplicate), which this plan does not re-run: the rebuilt units come out suspect and fail validation. Add it to this incident, or mark it known-bad with a reason.",
      },
    ]);
  });

  it("nothing found, nothing added", () => {
    expect(upstreamFindingChecks([])).toEqual({ blockers: [], warnings: [] });
  });
});
