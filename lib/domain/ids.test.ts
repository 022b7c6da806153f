import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetId, formatNodeId, isDatasetId, isTaskId, nodeName, parseNodeId, taskId } from "./ids";

describe("node ids (Marquez convention)", () => {
  it("formats job:<namespace>:<name> and dataset:<namespace>:<name> from the raw strings", () => {
    expect(taskId("reparo", "stg_orders")).toBe("job:reparo:stg_orders");
    expect(datasetId("reparo", "fct_orders")).toBe("dataset:reparo:fct_orders");
    expect(datasetId("my-namespace", "a:b")).toBe("dataset:my-namespace:a:b");
  });

  // Marquez's own cases (api/src/test/java/marquez/service/models/NodeIdTest.java, namespace$name):
  // each id is the raw join, and parses back to the same namespace and name.
  it.each([
    ["postgresql://hostname:5432/database", "my_table"],
    ["gs://bucket", "/path/to/data"],
    ["my-namespace", "my_struct<a:bigint,b:bigint,c:string>"],
    ["org://team", "my-job"],
  ])("Marquez's NodeIdTest: %s $ %s", (namespace, name) => {
    const id = datasetId(namespace, name);
    expect(id).toBe(`dataset:${namespace}:${name}`);
    expect(parseNodeId(id)).toEqual({ kind: "dataset", namespace, name });
    expect(parseNodeId(taskId(namespace, name))).toEqual({ kind: "job", namespace, name });
  });

  it("keeps URI namespaces with colons intact", () => {
    const id = datasetId("postgres://db:5432", "public.orders");
    expect(id).toBe("dataset:postgres://db:5432:public.orders");
    expect(parseNodeId(id)).toEqual({ kind: "dataset", namespace: "postgres://db:5432", name: "public.orders" });
    expect(nodeName(id)).toBe("public.orders");
  });

  it("rejects what is not a node id; nodeName of one is the text itself", () => {
    for (const bad of ["stg_orders", "task:ns:x", "job::x", "job:ns:", ":ns:x"]) expect(parseNodeId(bad)).toBeNull();
    expect(isTaskId("dataset:a:b")).toBe(false);
    expect(isDatasetId("dataset:a:b")).toBe(true);
    expect(nodeName("stg_orders")).toBe("stg_orders");
  });

  it("round-trips names with colons and percent signs under namespaces Marquez can tell apart", () => {
    const part = fc.string({ minLength: 1, maxLength: 12 });
    // Marquez's parse cannot tell where a name starts when it starts with a digit or "//" and the
    // id has more than three colon-separated parts: those names are left out, as Marquez leaves them.
    const name = part.filter((s) => !/^(\d|\/\/)/.test(s));
    // Marquez's rule: a namespace colon must be followed by "//" or a digit (a URI, a port).
    const namespace = fc.oneof(
      part.filter((s) => !s.includes(":")),
      fc
        .tuple(
          part.filter((s) => !s.includes(":")),
          fc.nat(9999),
        )
        .map(([h, p]) => `postgres://${h}:${p}`),
    );
    fc.assert(
      fc.property(namespace, name, (ns, n) => {
        expect(parseNodeId(formatNodeId("job", ns, n))).toEqual({ kind: "job", namespace: ns, name: n });
      }),
      { seed: 11, numRuns: 500 },
    );
  });
});
