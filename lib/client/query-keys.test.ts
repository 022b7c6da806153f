import { describe, expect, it } from "vitest";
import * as factories from "./query-keys";

// Invalidating a feature's `all` must reach every query of that feature and no other feature's:
// each key starts with its feature's root, and no two features share one.
const selection = { nodeId: "job:orders:stg_orders", units: "2026-08-17", direction: "downstream" as const, asOf: "" };
const sample: Record<string, unknown[]> = {
  list: [{ kind: "repair.launched" }],
  detail: ["inc_1", "2026-08-17"],
  step: ["inc_1", "plan", { strategy: "targeted" }],
  rootCause: ["job:orders:stg_orders", "2026-08-17"],
  graph: [""],
  layout: ["", ["b", "a"]],
  closure: [selection],
  holdings: [selection],
  people: [selection],
  nodePeople: ["dataset:warehouse:orders"],
  closureLayout: [selection, 1.5],
  idle: ["closure"],
  matrix: [{ from: "2026-08-01" }],
  certificate: [{ dataset: "dataset:warehouse:orders" }],
};

describe("the query-key factories", () => {
  const features = Object.entries(factories) as [string, Record<string, unknown>][];

  it("root every key of a feature at that feature's `all`", () => {
    for (const [name, factory] of features) {
      const all = factory.all as readonly string[];
      expect(all, name).toBeDefined();
      for (const [member, make] of Object.entries(factory)) {
        if (member === "all") continue;
        const key = typeof make === "function" ? (make as (...a: unknown[]) => readonly unknown[])(...(sample[member] ?? [])) : (make as readonly unknown[]);
        expect(key.slice(0, all.length), `${name}.${member}`).toEqual(all);
        expect(key.length, `${name}.${member}`).toBeGreaterThan(all.length);
      }
    }
  });

  it("give each feature its own root", () => {
    const roots = features.map(([, f]) => JSON.stringify(f.all));
    expect(new Set(roots).size).toBe(roots.length);
  });

  it("key the lineage layout by the set of collapsed pipelines, whatever their order or names", () => {
    expect(factories.lineageKeys.layout("", ["b", "a"])).toEqual(factories.lineageKeys.layout("", ["a", "b"]));
    expect(factories.lineageKeys.layout("", ["a,b"])).not.toEqual(factories.lineageKeys.layout("", ["a", "b"]));
  });
});
