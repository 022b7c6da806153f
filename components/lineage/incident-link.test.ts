import { describe, expect, it } from "vitest";
import type { Closure, ClosureNode } from "@/lib/contracts/lineage";
import { incidentHref } from "./incident-link";

const node = (nodeId: string, kind: "task" | "dataset", units: [string, string][] | null, seed: boolean): ClosureNode => ({
  nodeId,
  kind,
  name: nodeId.split(":").pop()!,
  units,
  unitCount: 1,
  unitsText: "",
  via: [],
  degradedVia: [],
  seed,
  depth: seed ? 0 : 1,
});
const closure = (...nodes: ClosureNode[]): Closure => ({ asOf: "2026-11-29T12:00:00.000Z", direction: "downstream", nodes, waves: [] });
const graph = {
  edges: [
    {
      id: "w",
      source: "job:orders:stg_orders",
      target: "dataset:warehouse:stg_orders",
      kind: "writes" as const,
      mapping: "",
      status: "exact" as const,
      note: "",
    },
  ],
};
const params = (href: string | null) => Object.fromEntries(new URLSearchParams(href!.split("?")[1]));

describe("incidentHref", () => {
  it("opens an incident for the selected task and its units, ranges kept as ranges", () => {
    const href = incidentHref(
      "job:orders:stg_orders",
      closure(
        node(
          "job:orders:stg_orders",
          "task",
          [
            ["2026-08-01", "2026-08-07"],
            ["2026-08-17", "2026-08-17"],
          ],
          true,
        ),
        node("dataset:warehouse:stg_orders", "dataset", [["2026-08-17", "2026-08-17"]], false),
      ),
      graph,
    );
    expect(href!.startsWith("/incidents/new?")).toBe(true);
    expect(params(href)).toEqual({ node: "job:orders:stg_orders", units: "2026-08-01..2026-08-07,2026-08-17" });
  });

  it("for a selected dataset, names the task that writes it; an unpartitioned one's unit is *", () => {
    expect(params(incidentHref("dataset:warehouse:stg_orders", closure(node("dataset:warehouse:stg_orders", "dataset", null, true)), graph))).toEqual({
      node: "job:orders:stg_orders",
      units: "*",
    });
  });

  it("offers nothing for a source nothing writes, or for a closure of another selection", () => {
    expect(
      incidentHref("dataset:warehouse:raw_orders", closure(node("dataset:warehouse:raw_orders", "dataset", [["2026-08-17", "2026-08-17"]], true)), graph),
    ).toBeNull();
    expect(incidentHref("job:orders:fct_orders", closure(node("job:orders:stg_orders", "task", [["2026-08-17", "2026-08-17"]], true)), graph)).toBeNull();
  });
});
