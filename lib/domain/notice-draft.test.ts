import { describe, expect, it } from "vitest";
import { draftNotice, type NoticeFacts } from "./notice-draft";

// raw_orders -> stg_orders -> fct_orders -> revenue_daily -> weekly_revenue_export (sent to finance-ledger)
//                                        \-> build_order_features -> order_features
const facts = (over: Partial<NoticeFacts> = {}): NoticeFacts => ({
  title: "stg_orders 2026-08-17 failed",
  event: "opened",
  detectedAt: new Date("2026-08-17T02:10:33Z"),
  severity: null,
  affected: [
    { nodeId: "job:orders:stg_orders", name: "stg_orders", units: [["2026-08-17", "2026-08-17"]] },
    { nodeId: "dataset:warehouse:revenue_daily", name: "revenue_daily", units: [["2026-08-17", "2026-08-17"]] },
    { nodeId: "job:finance:weekly_revenue_export", name: "weekly_revenue_export", units: [["2026-W34", "2026-W34"]] },
    { nodeId: "dataset:finance:weekly_revenue_export", name: "weekly_revenue_export", units: [["2026-W34", "2026-W34"]] },
    { nodeId: "dataset:ml:order_features", name: "order_features", units: [["2026-08-17", "2026-08-19"]] },
  ],
  deliveries: [
    {
      nodeIds: ["job:finance:weekly_revenue_export", "dataset:finance:weekly_revenue_export"],
      unitKey: "2026-W34",
      destination: "finance-ledger",
      sentAt: new Date("2026-08-24T06:00:00Z"),
    },
  ],
  plan: null,
  ...over,
});

const finance = { name: "finance-team", role: "owner" as const, nodeIds: ["job:finance:weekly_revenue_export", "dataset:finance:weekly_revenue_export"] };

describe("draftNotice", () => {
  it("names the recipient's units in their words, the delivery already made, since when, and no ETA before a plan", () => {
    const d = draftNotice(facts(), finance)!;
    expect(d.text).toBe(
      [
        "[Reparo] Incident opened: stg_orders 2026-08-17 failed",
        "finance-team: units you own are affected.",
        "- weekly_revenue_export 2026-W34 (2026-W34 already sent to finance-ledger on 2026-08-24 06:00 UTC)",
        "Since: 2026-08-17 02:10 UTC (detected).",
        "Being done: not planned yet — the commander is scoping the repair.",
        "ETA: no ETA until a plan is confirmed.",
      ].join("\n"),
    );
    expect(d.units.map((u) => u.nodeId)).toEqual(["job:finance:weekly_revenue_export"]);
  });

  it("never names a unit of a node the recipient neither owns nor reads", () => {
    const ml = draftNotice(facts(), { name: "ml-team", role: "consumer", nodeIds: ["dataset:ml:order_features"] })!;
    expect(ml.text).toContain("- order_features 2026-08-17 … 2026-08-19");
    expect(ml.text).not.toContain("revenue_daily");
    expect(ml.text).not.toContain("weekly_revenue_export");
    expect(ml.text).toContain("units you read are affected");
  });

  it("is null for a recipient the incident does not reach", () => {
    expect(draftNotice(facts(), { name: "meters-team", role: "owner", nodeIds: ["dataset:meters:consumption"] })).toBeNull();
  });

  it("says the plan and its ETA once one is confirmed, with the severity in the subject", () => {
    const d = draftNotice(
      facts({
        event: "plan_confirmed",
        severity: "SEV2",
        plan: { strategy: "repair_with_closure", waves: 4, unitsRecomputed: 9, etaAt: new Date("2026-08-25T10:42:10Z") },
      }),
      finance,
    )!;
    expect(d.subject).toBe("[Reparo] SEV2 · Repair planned: stg_orders 2026-08-17 failed");
    expect(d.text).toContain("Being done: repair with closure, 9 units recomputed in 4 waves.");
    expect(d.text).toContain("ETA: 2026-08-25 10:42 UTC.");
    const timed = (etaAt: Date | null, etaBasis: string) =>
      draftNotice(facts({ event: "plan_confirmed", plan: { strategy: "repair_with_closure", waves: 4, unitsRecomputed: 9, etaAt, etaBasis } }), finance)!.text;
    expect(timed(new Date("2026-08-25T10:42:10Z"), "from the median of 24 attempts of 3 tasks")).toContain(
      "ETA: 2026-08-25 10:42 UTC (from the median of 24 attempts of 3 tasks).",
    );
    expect(timed(null, "no attempt of its tasks has a recorded duration")).toContain("ETA: not estimated — no attempt of its tasks has a recorded duration.");
  });

  it("tells the end: resolved with its reason", () => {
    const d = draftNotice(facts({ event: "resolved", closedReason: "re-run and re-exported" }), finance)!;
    expect(d.text).toContain("units you own were affected");
    expect(d.text).toContain("Done: repaired and validated — re-run and re-exported. The units above are whole again.");
  });
});
