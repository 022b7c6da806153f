import { describe, expect, it } from "vitest";
import { dagsterPipelineRef } from "./dagster-pipeline";

describe("dagsterPipelineRef: the pipeline a Dagster connection names before Reparo has seen it", () => {
  it.each([
    ["dagster-lab/lab_orders", { namespace: "dagster-lab", name: "lab_orders" }],
    ["lab_orders", { namespace: "dagster", name: "lab_orders" }],
    ["s3://bucket/x/group_1", { namespace: "s3://bucket/x", name: "group_1" }],
  ])("%s", (id, ref) => expect(dagsterPipelineRef(id)).toEqual(ref));
  it.each([["dagster-lab/lab-orders"], ["lab orders"], ["ns/"], ["/lab_orders"], [" ns/lab_orders"], ["n\u202es/lab_orders"], ["n\ts/lab_orders"]])(
    "%j is refused",
    (id) => {
      expect(() => dagsterPipelineRef(id)).toThrow(/^params\.id: /);
    },
  );
});
