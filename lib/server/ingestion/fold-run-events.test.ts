import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/contracts/openlineage";
import { dbtBatchWindow, dbtStatementParent, foldRunEvents, runRefOfEvent } from "./fold-run-events";

// dbt-ol --consume-structured-logs, a microbatch model over 3 days with the middle batch failing
// (what the peers lab recorded, trimmed: test/fixtures/peers/dbt/openlineage-events.ndjson):
//
//   model.p.revenue_daily  run R: START START COMPLETE | START FAIL | START COMPLETE OTHER
//   model.p.revenue_daily.sql.<n>  (parent R): the batch's SQL, its window only in dbt's event-time filter
const NS = "dbt-lab";
const MODEL = "model.p.revenue_daily";
const R = "01a242f3-3aa3-7834-bbd1-52eb80e60fee";
const microbatch = { dbt_model: { config: { materialized: "incremental", incremental: { strategy: "microbatch", batch_size: "day" } } } };
const output = { namespace: "postgres://127.0.0.1:5432", name: "wh.dbt_lab.revenue_daily", facets: microbatch, outputFacets: {} };
const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 21, 26, s)).toISOString();

function node(eventType: RunEvent["eventType"], s: number, facets: object = {}): RunEvent {
  return { eventType, eventTime: at(s), run: { runId: R, facets }, job: { namespace: NS, name: MODEL }, inputs: [], outputs: [output] } as unknown as RunEvent;
}
function statement(n: number, s: number, query: string): RunEvent {
  return {
    eventType: "START",
    eventTime: at(s),
    run: { runId: `stmt-${n}`, facets: { parent: { job: { namespace: NS, name: MODEL }, run: { runId: R } } } },
    job: { namespace: NS, name: `${MODEL}.sql.${n}`, facets: { sql: { query } } },
    inputs: [],
    outputs: [],
  } as unknown as RunEvent;
}
const batchSql = (day: string, next: string) =>
  `create temporary table "revenue_daily__dbt_tmp" as (select order_day, country from (select * from "wh"."dbt_lab"."fct_orders" where order_day >= '${day} 00:00:00+00:00' and order_day < '${next} 00:00:00+00:00') _dbt_et_filter_subq_fct_orders group by 1, 2);`;

describe("dbt-ol's statements and microbatch batches", () => {
  it("a statement `<node job>.sql.<n>` belongs to its node's run; any other event to its own", () => {
    const s = statement(1, 1, "commit");
    expect(dbtStatementParent(s)).toMatchObject({ jobNodeId: `job:${NS}:${MODEL}`, runId: R });
    expect(runRefOfEvent(s)).toMatchObject({ name: MODEL, runId: R });
    expect(dbtStatementParent(node("START", 0))).toBeNull();
    // A child job of another name (an Airflow task under its DAG run) is not a statement.
    const child = { ...s, job: { namespace: NS, name: "lab_orders.stg_orders" } } as RunEvent;
    expect(dbtStatementParent(child)).toBeNull();
  });

  it("reads a batch's window from dbt's event-time filter, and nothing from other SQL", () => {
    expect(dbtBatchWindow(batchSql("2026-08-17", "2026-08-18"))).toEqual({ start: Date.UTC(2026, 7, 17), end: Date.UTC(2026, 7, 18) });
    expect(dbtBatchWindow("select * from t where order_day >= '2026-08-17' and order_day < '2026-08-18'")).toBeNull();
    expect(dbtBatchWindow("COMMIT")).toBeNull();
  });

  it("each try of a microbatch model is one batch, with its window; the statements make no try", () => {
    const run = foldRunEvents([
      node("START", 0),
      node("START", 1),
      statement(1, 2, batchSql("2026-08-16", "2026-08-17")),
      statement(2, 3, "COMMIT"),
      node("COMPLETE", 4),
      node("START", 5),
      statement(3, 6, batchSql("2026-08-17", "2026-08-18")),
      node("FAIL", 7, { errorMessage: { message: "ERROR", programmingLanguage: "sql" } }),
      node("START", 8),
      statement(4, 9, batchSql("2026-08-18", "2026-08-19")),
      node("COMPLETE", 10),
      node("OTHER", 11),
    ])!;
    expect(run.name).toBe(MODEL);
    expect(run.microbatch).toBe(true);
    expect(run.tries.map((t) => [new Date(t.window!.start).toISOString().slice(0, 10), t.status, t.error])).toEqual([
      ["2026-08-16", "succeeded", null],
      ["2026-08-17", "failed", "ERROR"],
      ["2026-08-18", "succeeded", null],
    ]);
  });

  it("a model that is not microbatch keeps its tries whole; statements alone are not a run yet", () => {
    const table = (e: RunEvent) => ({ ...e, outputs: [{ ...output, facets: {} }] }) as RunEvent;
    const run = foldRunEvents([table(node("START", 0)), statement(1, 1, batchSql("2026-08-16", "2026-08-17")), table(node("COMPLETE", 2))])!;
    expect(run.microbatch).toBe(false);
    expect(run.tries.map((t) => [t.status, t.window])).toEqual([["succeeded", undefined]]);
    expect(foldRunEvents([statement(1, 1, "COMMIT")])).toBeNull();
  });
});

describe("owners in the producers' facets", () => {
  // The OpenLineage spec's OwnershipJobFacet and OwnershipDatasetFacet (test/fixtures/peers/openlineage/facets).
  const ownership = (...names: string[]) => ({ ownership: { owners: names.map((name) => ({ name, type: "team" })) } });
  const event = (jobFacets: object, inputFacets: object, outputFacets: object): RunEvent =>
    ({
      eventType: "COMPLETE",
      eventTime: at(1),
      run: { runId: R, facets: {} },
      job: { namespace: NS, name: "orders.load", facets: jobFacets },
      inputs: [{ namespace: "pg", name: "raw.orders", facets: inputFacets }],
      outputs: [{ namespace: "pg", name: "wh.orders", facets: outputFacets, outputFacets: {} }],
    }) as unknown as RunEvent;

  it("the job's first owner is the task's; each dataset's first owner, inputs and outputs alike, is that dataset's", () => {
    const run = foldRunEvents([event(ownership("orders-team", "ana"), ownership(" sources-team "), ownership("warehouse-team"))])!;
    expect(run.facts.openlineage.owner).toBe("orders-team");
    expect(run.facts.datasetOwners).toEqual({ "dataset:pg:raw.orders": "sources-team", "dataset:pg:wh.orders": "warehouse-team" });
  });

  it("no facet, an empty list or a blank name: nobody said", () => {
    const run = foldRunEvents([event({}, { ownership: { owners: [] } }, ownership("  "))])!;
    expect([run.facts.openlineage.owner, run.facts.datasetOwners]).toEqual([null, {}]);
  });
});
