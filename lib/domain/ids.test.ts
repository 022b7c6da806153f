import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetId, formatNodeId, isDatasetId, isTaskId, nodeName, parseNodeId, taskId } from "./ids";

describe("node ids (Marquez convention)", () => {
  it("formats job:<namespace>:<name> and dataset:<namespace>:<name>", () => {
    expect(taskId("reparo", "stg_orders")).toBe("job:reparo:stg_orders");
    expect(datasetId("reparo", "fct_orders")).toBe("dataset:reparo:fct_orders");
  });

  it("keeps URI namespaces with colons intact; the name is after the last colon", () => {
    const id = datasetId("postgres://db:5432", "public.orders");
    expect(id).toBe("dataset:postgres://db:5432:public.orders");
    expect(parseNodeId(id)).toEqual({ kind: "dataset", namespace: "postgres://db:5432", name: "public.orders" });
    expect(nodeName(id)).toBe("public.orders");
  });

  it("rejects what is not a node id", () => {
    for (const bad of ["stg_orders", "task:ns:x", "job::x", "job:ns:", ":ns:x"]) expect(parseNodeId(bad)).toBeNull();
    expect(isTaskId("dataset:a:b")).toBe(false);
    expect(isDatasetId("dataset:a:b")).toBe(true);
  });

  it("round-trips any name, colons and percent signs included", () => {
    const part = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(part.filter((s) => !s.includes(":")), part, (ns, name) => {
        expect(parseNodeId(formatNodeId("job", ns, name))).toEqual({ kind: "job", namespace: ns, name });
      })
    );
  });
});
