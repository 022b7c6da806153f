import { describe, expect, it } from "vitest";
import { resolvePartitions } from "@/lib/domain/partitions";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";
import { upstreamResolver } from "./upstream-resolver";

const space = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-14", end: "2026-08-31", timezone: "UTC" });
const day = (key: string) => (space.validate(key) as { ordinal: number }).ordinal;
const balance = { id: "d-balance", nodeId: "dataset:warehouse:running_balance" } as DatasetRecord;
const fct = { id: "d-fct", nodeId: "dataset:warehouse:fct_orders" } as DatasetRecord;
const edge = (datasetId: string, direction: "read" | "write", mapping = "identity"): EdgeRecord => ({
  taskId: "t-balance",
  datasetId,
  direction,
  mapping,
  mappingParams: mapping === "previous" ? { n: 1 } : {},
  validFrom: new Date(0),
});
/** Publish instants: every unit at 1000 + its ordinal, so each later day is published later. */
const published = () => Float64Array.from({ length: space.size }, (_, o) => 1000 + o);

function resolver(dependsOnOwnPast: boolean | null, selfMapping = "identity") {
  return upstreamResolver(
    {
      space,
      latest: new Map([
        [balance.id, published()],
        [fct.id, published()],
      ]),
      datasetsById: new Map([
        [balance.id, balance],
        [fct.id, fct],
      ]),
      spaces: new Map([
        [balance.id, space],
        [fct.id, space],
      ]),
      edges: [edge(fct.id, "read"), edge(balance.id, "read", selfMapping), edge(balance.id, "write")],
    },
    { id: "t-balance", dependsOnOwnPast } as TaskRecord,
  );
}

describe("the upstream units a unit was built from (what staleness compares with)", () => {
  it("OpenLineage's running balance lists its own table as an input: declared sequential, it reads the day before — never itself", () => {
    expect(resolver(true)(day("2026-08-18"))).toEqual([
      { dataset: fct.nodeId, unitKey: "2026-08-18", publishedAt: 1000 + day("2026-08-18") },
      { dataset: balance.nodeId, unitKey: "2026-08-17", publishedAt: 1000 + day("2026-08-17") },
    ]);
  });

  it("a task updating its own unit in place (not declared sequential) is not its own upstream", () => {
    for (const dependsOnOwnPast of [false, null]) expect(resolver(dependsOnOwnPast)(day("2026-08-18")).map((u) => u.dataset)).toEqual([fct.nodeId]);
  });

  it("a declared previous(1) self-read is kept as declared", () => {
    expect(resolver(true, "previous")(day("2026-08-18"))).toContainEqual({
      dataset: balance.nodeId,
      unitKey: "2026-08-17",
      publishedAt: 1000 + day("2026-08-17"),
    });
  });
});
