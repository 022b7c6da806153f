import fs from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { checkEvent } from "../../ingestion/parse-lineage-body";
import { RunFailuresAnswerSchema, SourceAssetsAnswerSchema, SourceRunsAnswerSchema, type SourceRun, type StepFailure } from "./dagster-answers";
import { SOURCE_ASSETS_QUERY, SOURCE_PARTITION_KEYS_QUERY, SOURCE_RUN_FAILURES_QUERY, SOURCE_RUNS_QUERY, runsVariables } from "./dagster-queries";
import { runToEvents, stepRunId, type OpenLineageRunEvent } from "./to-openlineage";

/**
 * The conversion of what the REAL Dagster 1.13.27 answered (test/fixtures/peers/dagster/source/,
 * recorded from the peers lab by peers/dagster/record-source.ts after `lab.sh schedule dagster
 * 2026-08-29 2026-08-31` with stg_orders 2026-08-30 `half` and 2026-08-31 `clean`):
 *
 *   255a18b5  2026-08-29  raw → stg → fct → revenue → finance_export   SUCCESS
 *   d1d749cd  2026-08-30  raw ok, stg_orders wrote 21 rows then FAILED (fct… skipped: not in stepStats)
 *   889f7a38  2026-08-31  raw ok, stg_orders FAILED before writing
 *   8fc457b7  2026-08-29  running_balance (its own run: it reads its own previous partition)
 */
const FIXTURES = path.resolve(__dirname, "../../../../test/fixtures/peers/dagster");
const read = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, "source", name), "utf8"));
const schema = buildSchema(fs.readFileSync(path.join(FIXTURES, "schema-1.13.27.graphql"), "utf8"));

const assets = SourceAssetsAnswerSchema.parse(read("assets.json").response.data).assetNodes;
const runsAnswer = SourceRunsAnswerSchema.parse(read("runs.json")[0].response.data).runsOrError;
const runs = runsAnswer.__typename === "Runs" ? runsAnswer.results : [];
const runOf = (prefix: string): SourceRun => runs.find((r) => r.runId.startsWith(prefix))!;
function failuresOf(run: SourceRun): StepFailure[] {
  const file = `failures-${run.runId}.json`;
  if (!fs.existsSync(path.join(FIXTURES, "source", file))) return [];
  const answer = RunFailuresAnswerSchema.parse(read(file).response.data).logsForRun;
  return answer.__typename === "EventConnection" ? answer.events.filter((e): e is StepFailure => e.__typename === "ExecutionStepFailureEvent") : [];
}
const PIPELINE = { namespace: "dagster-lab", name: "lab_orders" };
const convert = (run: SourceRun) => runToEvents({ pipeline: PIPELINE, assets, run, failures: failuresOf(run) });

/** Each event as `TYPE job [partition keys] rows=N` — what Reparo folds of it. */
function summary(events: OpenLineageRunEvent[]): string[] {
  return events.map((e) => {
    const out = (
      e.outputs as { outputFacets: { subset?: { outputCondition: { partitions: { identifier: string }[] } }; outputStatistics?: { rowCount: number } } }[]
    )[0];
    const keys = out?.outputFacets.subset?.outputCondition.partitions.map((p) => p.identifier) ?? [];
    const rows = out?.outputFacets.outputStatistics?.rowCount;
    return `${e.eventType} ${(e.job as { name: string }).name}${keys.length ? ` [${keys.join(",")}]` : ""}${rows !== undefined ? ` rows=${rows}` : ""}`;
  });
}

describe("the Dagster source's requests, against Dagster 1.13.27's own schema", () => {
  it.each([
    ["assets", SOURCE_ASSETS_QUERY],
    ["runs", SOURCE_RUNS_QUERY],
    ["failures", SOURCE_RUN_FAILURES_QUERY],
    ["partition keys", SOURCE_PARTITION_KEYS_QUERY],
  ])("%s is a valid operation", (_name, query) => {
    expect(validate(schema, parse(query)).map((e) => e.message)).toEqual([]);
  });

  it("asks for the runs changed since the cursor, a page after a run id", () => {
    expect(runsVariables(null, null)).toEqual({ filter: {}, limit: 50 });
    expect(runsVariables(1796427000.5, "8fc457b7")).toEqual({ filter: { updatedAfter: 1796427000.5 }, limit: 50, cursor: "8fc457b7" });
  });

  it("the recorded answers are what the source reads: the lab's six assets and four runs", () => {
    expect(assets.map((a) => `${a.assetKey.path.join("/")} ${a.groupName} ← ${a.dependencyKeys.map((d) => d.path.join("/")).join(",")}`).sort()).toEqual([
      "fct_orders lab_orders ← stg_orders",
      "finance_export lab_orders ← revenue_daily",
      "raw_orders lab_orders ← ",
      "revenue_daily lab_orders ← fct_orders",
      "running_balance lab_orders ← revenue_daily,running_balance",
      "stg_orders lab_orders ← raw_orders",
    ]);
    expect(runs.map((r) => `${r.runId.slice(0, 8)} ${r.status}`)).toEqual(["8fc457b7 SUCCESS", "889f7a38 FAILURE", "d1d749cd FAILURE", "255a18b5 SUCCESS"]);
  });
});

describe("runToEvents: Dagster's runs as OpenLineage events", () => {
  it("a successful run: the run, and each asset's step with its partition and Dagster's partition row count", () => {
    expect(summary(convert(runOf("255a18b5")))).toEqual([
      "START lab_orders",
      "START raw_orders [2026-08-29]",
      "COMPLETE raw_orders [2026-08-29] rows=41",
      "START stg_orders [2026-08-29]",
      "COMPLETE stg_orders [2026-08-29] rows=41",
      "START fct_orders [2026-08-29]",
      "COMPLETE fct_orders [2026-08-29] rows=41",
      "START revenue_daily [2026-08-29]",
      "COMPLETE revenue_daily [2026-08-29] rows=4",
      "START finance_export [2026-08-29]",
      "COMPLETE finance_export [2026-08-29] rows=1",
      "COMPLETE lab_orders",
    ]);
  });

  it("a failed step: FAIL on its partition (from the run's tag: no materialization) with the user code's own error; skipped steps send nothing", () => {
    const events = convert(runOf("d1d749cd"));
    expect(summary(events)).toEqual([
      "START lab_orders",
      "START raw_orders [2026-08-30]",
      "COMPLETE raw_orders [2026-08-30] rows=42",
      "START stg_orders [2026-08-30]",
      "FAIL stg_orders [2026-08-30]",
      "FAIL lab_orders",
    ]);
    const fail = events[4]!.run.facets.errorMessage as { message: string; stackTrace: string };
    expect(fail.message).toBe("lab_orders.LabControlError: lab_control: dagster.stg_orders failed for 2026-08-30 after writing half of the rows (mode half)");
    expect(fail.stackTrace).toBe('dagster._core.errors.DagsterExecutionStepExecutionError: Error occurred while executing op "stg_orders":');
    expect((convert(runOf("889f7a38"))[4]!.run.facets.errorMessage as { message: string }).message).toContain(
      "failed for 2026-08-31 before writing anything (mode clean)",
    );
  });

  it("links each step to its Dagster run (parent and root: the pipeline), reads its dependencies, its own past included", () => {
    const [root, start] = convert(runOf("8fc457b7"));
    expect(root!.job).toEqual({ namespace: "dagster-lab", name: "lab_orders" });
    expect(root!.run.runId).toBe("8fc457b7-aa3b-4aa2-a2fc-e58b35d50490");
    expect(start!.job).toMatchObject({ namespace: "dagster-lab", name: "running_balance", facets: { ownership: { owners: [{ name: "team:finance" }] } } });
    expect(start!.run.runId).toBe(stepRunId("8fc457b7-aa3b-4aa2-a2fc-e58b35d50490", "running_balance", "running_balance"));
    expect(start!.run.facets.parent).toMatchObject({
      job: { namespace: "dagster-lab", name: "lab_orders" },
      run: { runId: "8fc457b7-aa3b-4aa2-a2fc-e58b35d50490" },
      root: { job: { namespace: "dagster-lab", name: "lab_orders" }, run: { runId: "8fc457b7-aa3b-4aa2-a2fc-e58b35d50490" } },
    });
    expect(start!.inputs).toEqual([
      { namespace: "dagster-lab", name: "revenue_daily" },
      { namespace: "dagster-lab", name: "running_balance" },
    ]);
    expect(start!.eventTime).toBe(new Date(Math.round(1796427063.7874882 * 1000)).toISOString());
  });

  it("is deterministic (a re-poll makes the same bytes: duplicates), and every event passes the OpenLineage spec as a producer's would", () => {
    const now = new Date(1796427100_000);
    for (const run of runs) {
      const first = convert(run);
      expect(JSON.stringify(convert(run))).toBe(JSON.stringify(first));
      for (const [i, e] of first.entries()) expect(checkEvent(e, `e${i}`, now)).toMatchObject({ ok: true, kind: "RunEvent" });
    }
    expect(stepRunId("r", "s", "a")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stepRunId("r", "s", "a")).not.toBe(stepRunId("r", "s", "b"));
  });

  it("rows unknown when Dagster's metadata has no count, several partitions share one, or the asset is not the pipeline's", () => {
    const run = runOf("255a18b5");
    const bare = { ...run, stepStats: run.stepStats.map((s) => ({ ...s, materializations: s.materializations.map((m) => ({ ...m, metadataEntries: [] })) })) };
    expect(summary(runToEvents({ pipeline: PIPELINE, assets, run: bare, failures: [] }))[2]).toBe("COMPLETE raw_orders [2026-08-29]");
    const two = {
      ...run,
      stepStats: [
        {
          ...run.stepStats[0]!,
          materializations: [run.stepStats[0]!.materializations[0]!, { ...run.stepStats[0]!.materializations[0]!, partition: "2026-08-28" }],
        },
      ],
    };
    expect(summary(runToEvents({ pipeline: PIPELINE, assets, run: two, failures: [] }))[2]).toBe("COMPLETE raw_orders [2026-08-29,2026-08-28]");
    expect(
      runToEvents({ pipeline: PIPELINE, assets: assets.filter((a) => a.assetKey.path[0] === "stg_orders"), run: runOf("8fc457b7"), failures: [] }),
    ).toEqual([]);
  });

  it("a run over a range of partitions: its steps' keys from the range tags and the asset's partition keys", () => {
    const run = runOf("889f7a38");
    const ranged = {
      ...run,
      tags: [
        { key: "dagster/asset_partition_range_start", value: "2026-08-30" },
        { key: "dagster/asset_partition_range_end", value: "2026-08-31" },
      ],
      stepStats: run.stepStats.filter((s) => s.stepKey === "stg_orders"),
    };
    const keys = ["2026-08-29", "2026-08-30", "2026-08-31"];
    expect(summary(runToEvents({ pipeline: PIPELINE, assets, run: ranged, failures: failuresOf(run), partitionKeysOf: () => keys }))).toEqual([
      "START lab_orders",
      "START stg_orders [2026-08-30,2026-08-31]",
      "FAIL stg_orders [2026-08-30,2026-08-31]",
      "FAIL lab_orders",
    ]);
  });
});

describe("a step its run left in progress ends with the run", () => {
  const run = runOf("889f7a38");
  const stuck = (status: SourceRun["status"]) => ({
    ...run,
    status,
    stepStats: run.stepStats.map((s) => (s.stepKey === "stg_orders" ? { ...s, status: "IN_PROGRESS" as const, endTime: null } : s)),
  });
  it.each([
    ["CANCELED", "ABORT", "ABORT lab_orders"],
    ["FAILURE", "FAIL", "FAIL lab_orders"],
  ] as const)("a run %s: the step %s", (status, type, last) => {
    const events = runToEvents({ pipeline: PIPELINE, assets, run: stuck(status), failures: [] });
    expect(summary(events).slice(3)).toEqual(["START stg_orders [2026-08-31]", `${type} stg_orders [2026-08-31]`, last]);
    expect((events[4]!.run.facets.errorMessage as { message: string }).message).toBe(
      `the Dagster run ${run.runId} ended ${status} before step stg_orders finished`,
    );
    expect(events[4]!.eventTime).toBe(new Date(Math.round(run.endTime! * 1000)).toISOString());
  });
  it("a run still going: the step only started", () => {
    expect(summary(runToEvents({ pipeline: PIPELINE, assets, run: { ...stuck("STARTED"), endTime: null }, failures: [] }))).toEqual([
      "START lab_orders",
      "START raw_orders [2026-08-31]",
      "COMPLETE raw_orders [2026-08-31] rows=43",
      "START stg_orders [2026-08-31]",
    ]);
  });
});

describe("refused whole: answers no Dagster gives", () => {
  const good = read("runs.json")[0].response.data;
  const withRun = (patch: (r: Record<string, unknown>) => void) => {
    const copy = structuredClone(good);
    patch(copy.runsOrError.results[0]);
    return SourceRunsAnswerSchema.safeParse(copy);
  };
  it.each([
    ["a status Dagster does not have", (r: Record<string, unknown>) => (r.status = "EXPLODED")],
    ["a time that is not a number", (r: Record<string, unknown>) => (r.startTime = "yesterday")],
    ["a time in the year 30000", (r: Record<string, unknown>) => (r.endTime = 9e11)],
    ["a run id with a bidirectional control", (r: Record<string, unknown>) => (r.runId = "abc\u202edef")],
    ["a step without its key", (r: Record<string, unknown>) => delete (r.stepStats as Record<string, unknown>[])[0]!.stepKey],
    [
      "a row count that is not an integer",
      (r: Record<string, unknown>) =>
        ((r.stepStats as { materializations: { metadataEntries: { intRepr?: string }[] }[] }[])[0]!.materializations[0]!.metadataEntries[0]!.intRepr = "1e9"),
    ],
    ["a million tags", (r: Record<string, unknown>) => (r.tags = Array.from({ length: 10_001 }, (_, i) => ({ key: `k${i}`, value: "v" })))],
  ])("%s", (_name, patch) => {
    expect(withRun(patch).success).toBe(false);
  });
  it("the recorded answer itself passes", () => expect(withRun(() => undefined).success).toBe(true));
  it("a step failure whose fields were not sent", () =>
    expect(
      RunFailuresAnswerSchema.safeParse({
        logsForRun: { __typename: "EventConnection", cursor: "c", hasMore: false, events: [{ __typename: "ExecutionStepFailureEvent" }] },
      }).success,
    ).toBe(false));
});
