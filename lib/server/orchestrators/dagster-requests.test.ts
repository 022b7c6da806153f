import { describe, expect, it } from "vitest";
import { backfillProgress, planBackfills, previewFindings, runPairStatus, type BackfillOrError } from "./dagster-requests";
import type { DispatchPlan, PairRef, TaskFacts } from "./port";

// raw_orders -> stg_orders -> fct_orders -> revenue_daily -> finance_export (external)
//                                                       \-> running_balance (+ its previous day)
const task = (name: string, sideEffect: string | null = "none"): TaskFacts => ({
  taskNodeId: `job:dagster-lab:${name}`,
  name,
  namespace: "dagster-lab",
  pipeline: "lab_orders",
  sideEffect,
  writeMode: "replace",
});
const TASKS = [task("stg_orders"), task("fct_orders"), task("running_balance"), task("finance_export", "external"), task("analytics/ /x")];

function plan(pairs: readonly (readonly [string, string, number])[]): DispatchPlan {
  const refs: PairRef[] = pairs.map(([name, unitKey, wave]) => ({ taskNodeId: `job:dagster-lab:${name}`, unitKey, wave }));
  return {
    incidentId: "inc_1",
    runId: "run_1",
    repairNumber: 1,
    pairs: refs,
    waves: Math.max(...refs.map((p) => p.wave)) + 1,
    tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(["job:dagster-lab:finance_export"]),
    windowOf: () => ({ start: new Date(0), end: new Date(0) }),
    unitAt: (_t, at) => at.toISOString().slice(0, 10),
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: {},
    launchedAt: null,
  };
}

describe("planBackfills: one backfill per wave and distinct partition set, the exact assets", () => {
  it.each([
    {
      why: "two assets with the same days in one wave share a backfill",
      pairs: [
        ["stg_orders", "2026-08-27", 0],
        ["stg_orders", "2026-08-29", 0],
        ["fct_orders", "2026-08-29", 0],
        ["fct_orders", "2026-08-27", 0],
      ],
      assets: {},
      backfills: [{ wave: 0, partitionNames: ["2026-08-27", "2026-08-29"], assets: [["stg_orders"], ["fct_orders"]] }],
      unsupported: [],
    },
    {
      why: "other days or another wave: backfills of their own, in wave order",
      pairs: [
        ["running_balance", "2026-08-28", 1],
        ["stg_orders", "2026-08-27", 0],
        ["running_balance", "2026-08-27", 1],
        ["fct_orders", "2026-08-27", 0],
        ["fct_orders", "2026-08-29", 0],
      ],
      assets: {},
      backfills: [
        { wave: 0, partitionNames: ["2026-08-27"], assets: [["stg_orders"]] },
        { wave: 0, partitionNames: ["2026-08-27", "2026-08-29"], assets: [["fct_orders"]] },
        { wave: 1, partitionNames: ["2026-08-27", "2026-08-28"], assets: [["running_balance"]] },
      ],
      unsupported: [],
    },
    {
      why: "the connection maps a task to its asset key (by node id)",
      pairs: [["stg_orders", "2026-08-27", 0]],
      assets: { "job:dagster-lab:stg_orders": "warehouse/stg_orders" },
      backfills: [{ wave: 0, partitionNames: ["2026-08-27"], assets: [["warehouse", "stg_orders"]] }],
      unsupported: [],
    },
    {
      why: "a side-effecting task and an empty key segment are not sent",
      pairs: [
        ["finance_export", "2026-08-27", 0],
        ["analytics/ /x", "2026-08-27", 0],
      ],
      assets: {},
      backfills: [],
      unsupported: [
        ["job:dagster-lab:finance_export", /side-effecting/],
        ["job:dagster-lab:analytics/ /x", /empty path segment/],
      ],
    },
  ] as const)("$why", ({ pairs, assets, backfills, unsupported }) => {
    const out = planBackfills(plan(pairs), assets as Readonly<Record<string, string>>);
    expect(out.backfills.map((b) => ({ wave: b.wave, partitionNames: b.params.partitionNames, assets: b.params.assetSelection.map((a) => a.path) }))).toEqual(
      backfills,
    );
    expect(out.backfills.every((b) => b.params.fromFailure === false && b.params.title.startsWith("Reparo repair 1 of incident inc_1"))).toBe(true);
    expect(out.unsupported.map((u) => u.taskNodeId)).toEqual(unsupported.map(([id]) => id));
    out.unsupported.forEach((u, i) => expect(u.reason).toMatch(unsupported[i]![1]));
  });
});

describe("backfillProgress: each planned pair from the backfill's counts and runs", () => {
  const planned: [string, string][] = [
    ["job:dagster-lab:running_balance", "2026-08-27"],
    ["job:dagster-lab:running_balance", "2026-08-28"],
  ];
  const counts = (materialized: number, failed = 0) => ({
    assetBackfillData: {
      assetBackfillStatuses: [
        {
          __typename: "AssetPartitionsStatusCounts",
          assetKey: { path: ["running_balance"] },
          numPartitionsTargeted: 2,
          numPartitionsInProgress: 0,
          numPartitionsMaterialized: materialized,
          numPartitionsFailed: failed,
        },
      ],
    },
  });
  const run = (runId: string, status: string, tags: [string, string][]) => ({
    runId,
    status,
    tags: tags.map(([key, value]) => ({ key, value })),
    assetSelection: [{ path: ["running_balance"] }],
  });
  it.each<{ why: string; answer: Omit<BackfillOrError, "__typename">; statuses: string[] }>([
    {
      why: "every targeted partition materialized: both succeeded",
      answer: { status: "REQUESTED", ...counts(2), runs: [] },
      statuses: ["succeeded", "succeeded"],
    },
    {
      why: "the run of a partition decides; the day not launched yet is pending",
      answer: { status: "REQUESTED", ...counts(1), runs: [run("r1", "SUCCESS", [["dagster/partition", "2026-08-27"]])] },
      statuses: ["succeeded", "pending"],
    },
    {
      why: "a run over a partition range covers each day in it",
      answer: {
        status: "REQUESTED",
        ...counts(0),
        runs: [
          run("r2", "STARTED", [
            ["dagster/asset_partition_range_start", "2026-08-27"],
            ["dagster/asset_partition_range_end", "2026-08-28"],
          ]),
        ],
      },
      statuses: ["running", "running"],
    },
    {
      why: "the backfill ended without a run of the day: failed",
      answer: { status: "COMPLETED_FAILED", ...counts(1, 0), runs: [run("r1", "SUCCESS", [["dagster/partition", "2026-08-27"]])] },
      statuses: ["succeeded", "failed"],
    },
    { why: "every targeted partition failed", answer: { status: "REQUESTED", ...counts(0, 2), runs: [] }, statuses: ["failed", "failed"] },
  ])("$why", ({ answer, statuses }) => {
    const out = backfillProgress(plan([["running_balance", "2026-08-27", 0]]), {}, "bf1", planned, { __typename: "PartitionBackfill", ...answer });
    expect(out.map((x) => x.status)).toEqual(statuses);
  });
});

describe("previewFindings: what Dagster does not have, what it would add", () => {
  it("a partition Dagster does not list is missing; an asset required with the selection is extra, flagged when it sends", () => {
    const p = plan([
      ["stg_orders", "2026-08-27", 0],
      ["stg_orders", "2026-09-01", 0],
    ]);
    const { backfills } = planBackfills(p, {});
    const found = previewFindings(p, {}, backfills, {
      assetNodes: [{ assetKey: { path: ["stg_orders"] }, isPartitioned: true, partitionKeys: ["2026-08-27"] }],
      required0: [{ path: ["finance_export"] }],
    });
    expect(found.missing.map((x) => x.unitKey)).toEqual(["2026-09-01"]);
    expect(found.extra.map((x) => [x.label, x.taskNodeId, x.sideEffect])).toEqual([
      ["finance_export @ 2026-08-27 (materialized with the selection)", "job:dagster-lab:finance_export", true],
      ["finance_export @ 2026-09-01 (materialized with the selection)", "job:dagster-lab:finance_export", true],
    ]);
  });
});

describe("runPairStatus", () => {
  it.each([
    ["SUCCESS", "succeeded"],
    ["FAILURE", "failed"],
    ["CANCELED", "failed"],
    ["STARTED", "running"],
    ["CANCELING", "running"],
    ["QUEUED", "pending"],
    ["STARTING", "pending"],
  ])("%s → %s", (status, pair) => expect(runPairStatus(status)).toBe(pair));
});
