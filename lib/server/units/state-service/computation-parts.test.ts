import { describe, expect, it } from "vitest";
import type { DatasetRecord, EdgeRecord } from "../../repositories/lineage/catalog-reads";
import { computationParts } from "./computation-parts";

const ds = (id: string) => ({ id, nodeId: `dataset:w:${id}` }) as DatasetRecord;
const edge = (taskId: string, datasetId: string, direction: "read" | "write") => ({ taskId, datasetId, direction }) as EdgeRecord;
const ids = (parts: DatasetRecord[][]) => parts.map((p) => p.map((d) => d.id).sort());

describe("computationParts", () => {
  // a → t1 → b → t2 → c (one chain); x → t3 → y (another); z alone.
  const datasets = ["a", "b", "c", "x", "y", "z"].map(ds);
  const edges = [
    edge("t1", "a", "read"),
    edge("t1", "b", "write"),
    edge("t2", "b", "read"),
    edge("t2", "c", "write"),
    edge("t3", "x", "read"),
    edge("t3", "y", "write"),
  ];
  const one = () => 1;

  it("never separates datasets a task links, however far apart", () => {
    for (const parts of [1, 2, 3, 5]) {
      for (const group of computationParts(datasets, edges, parts, one)) {
        const inGroup = new Set(group.map((d) => d.id));
        for (const linked of [
          ["a", "b", "c"],
          ["x", "y"],
        ])
          expect(linked.every((id) => inGroup.has(id)) || linked.every((id) => !inGroup.has(id))).toBe(true);
      }
    }
  });

  it("balances whole components by weight, the heaviest first into the lightest group", () => {
    expect(ids(computationParts(datasets, edges, 2, one))).toEqual([
      ["a", "b", "c"],
      ["x", "y", "z"],
    ]);
    expect(ids(computationParts(datasets, edges, 3, one))).toEqual([["a", "b", "c"], ["x", "y"], ["z"]]);
    const heavyZ = (d: DatasetRecord) => (d.id === "z" ? 10 : 1);
    expect(ids(computationParts(datasets, edges, 2, heavyZ))).toEqual([["z"], ["a", "b", "c", "x", "y"]]);
  });

  it("makes no more groups than there are components, and loses no dataset", () => {
    const parts = computationParts(datasets, edges, 8, one);
    expect(parts).toHaveLength(3);
    expect(
      parts
        .flat()
        .map((d) => d.id)
        .sort(),
    ).toEqual(["a", "b", "c", "x", "y", "z"]);
    expect(ids(computationParts(datasets, [...edges, edge("t4", "c", "read"), edge("t4", "z", "write"), edge("t4", "y", "read")], 2, one))).toEqual([
      ["a", "b", "c", "x", "y", "z"],
    ]);
    expect(computationParts([], edges, 2, one)).toEqual([]);
  });

  it("ignores edges to datasets it was not given", () => {
    expect(ids(computationParts([ds("a"), ds("x")], edges, 2, one))).toEqual([["a"], ["x"]]);
  });
});
