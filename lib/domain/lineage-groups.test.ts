import { describe, expect, it } from "vitest";
import { datasetPipelines } from "./lineage-groups";

// The jaffle_shop shape as dbt import and dbt-ol send it: every task under dbt-ol's command job,
// every dataset under the warehouse's namespace and no pipeline of its own.
const NS = "postgres://localhost:5432";
const dbt = {
  tasks: [
    { id: "job:dbt:seed.raw_orders", pipeline: "dbt-run-jaffle_shop" },
    { id: "job:dbt:model.stg_orders", pipeline: "dbt-run-jaffle_shop" },
    { id: "job:dbt:test.not_null_stg_orders", pipeline: "dbt-run-jaffle_shop" },
  ],
  datasets: [
    { id: `dataset:${NS}:raw_orders`, pipeline: null, namespace: NS },
    { id: `dataset:${NS}:stg_orders`, pipeline: null, namespace: NS },
  ],
  reads: [
    { task: "job:dbt:model.stg_orders", dataset: `dataset:${NS}:raw_orders` },
    { task: "job:dbt:test.not_null_stg_orders", dataset: `dataset:${NS}:stg_orders` },
  ],
  writes: [
    { task: "job:dbt:seed.raw_orders", dataset: `dataset:${NS}:raw_orders` },
    { task: "job:dbt:model.stg_orders", dataset: `dataset:${NS}:stg_orders` },
  ],
};

describe("datasetPipelines", () => {
  it("puts an undeclared dataset in the pipeline of the job that writes it, not in its namespace", () => {
    expect(Object.fromEntries(datasetPipelines(dbt))).toEqual({
      [`dataset:${NS}:raw_orders`]: "dbt-run-jaffle_shop",
      [`dataset:${NS}:stg_orders`]: "dbt-run-jaffle_shop",
    });
  });

  it("keeps a declared pipeline", () => {
    const declared = { ...dbt, datasets: [{ ...dbt.datasets[0]!, pipeline: "landing" }, dbt.datasets[1]!] };
    expect(datasetPipelines(declared).get(`dataset:${NS}:raw_orders`)).toBe("landing");
  });

  it("takes the pipeline most writers are in, ties by name", () => {
    const input = {
      tasks: [
        { id: "a", pipeline: "zeta" },
        { id: "b", pipeline: "alpha" },
        { id: "c", pipeline: "zeta" },
      ],
      datasets: [
        { id: "d1", pipeline: null, namespace: "ns" },
        { id: "d2", pipeline: null, namespace: "ns" },
      ],
      reads: [],
      writes: [
        { task: "a", dataset: "d1" },
        { task: "b", dataset: "d1" },
        { task: "c", dataset: "d1" },
        { task: "a", dataset: "d2" },
        { task: "b", dataset: "d2" },
      ],
    };
    expect(Object.fromEntries(datasetPipelines(input))).toEqual({ d1: "zeta", d2: "alpha" });
  });

  it("puts an unwritten source with its readers when they share one pipeline, else in its namespace", () => {
    const input = {
      tasks: [
        { id: "dag1.t1", pipeline: "dag1" },
        { id: "dag1.t2", pipeline: "dag1" },
        { id: "dag2.t1", pipeline: "dag2" },
      ],
      datasets: [
        { id: "src.one", pipeline: null, namespace: "s3://landing" },
        { id: "src.shared", pipeline: null, namespace: "s3://landing" },
        { id: "orphan", pipeline: null, namespace: "s3://x" },
      ],
      reads: [
        { task: "dag1.t1", dataset: "src.one" },
        { task: "dag1.t2", dataset: "src.one" },
        { task: "dag1.t1", dataset: "src.shared" },
        { task: "dag2.t1", dataset: "src.shared" },
      ],
      writes: [],
    };
    expect(Object.fromEntries(datasetPipelines(input))).toEqual({ "src.one": "dag1", "src.shared": "s3://landing", orphan: "s3://x" });
  });
});
