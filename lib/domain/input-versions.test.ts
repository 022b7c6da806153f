import { describe, expect, it } from "vitest";
import { inputVersionDiffers, mismatchedInputs, prevailingPerInput } from "./input-versions";

describe("input versions compared with the neighbours'", () => {
  it("the first unit of a model reading its own past read one input fewer: not a mismatch", () => {
    expect(inputVersionDiffers("fct_orders@1", "fct_orders@1,running_balance@1")).toBe(false);
  });

  it("another version of an input the neighbours also read is a mismatch (seed 000's as-of-now dimension)", () => {
    expect(inputVersionDiffers("dim_customers@2026-08-26,stg_orders@1", "dim_customers@2026-08-18,stg_orders@1")).toBe(true);
    expect(inputVersionDiffers("dim@2026-08-26", "dim@2026-08-18")).toBe(true);
  });

  it("inputs in common agree, whatever else either side read: not a mismatch", () => {
    expect(inputVersionDiffers("a@1,b@2", "a@1,b@2")).toBe(false);
    expect(inputVersionDiffers("a@1,b@2,c@9", "a@1,b@2")).toBe(false);
  });

  it("no version recorded is unknown, not a mismatch", () => {
    expect(inputVersionDiffers(null, "a@1")).toBe(false);
    expect(mismatchedInputs(null, "a@1,b@2")).toBeNull();
  });

  it("no input in common, or a version in another form: compared whole", () => {
    expect(inputVersionDiffers("x@1", "a@1,b@2")).toBe(true);
    expect(inputVersionDiffers("snapshot-2026-08-26", "snapshot-2026-08-18")).toBe(true);
    expect(inputVersionDiffers("snapshot-2026-08-18", "snapshot-2026-08-18")).toBe(false);
    // A namespaced OpenLineage input keeps its namespace in the name.
    expect(inputVersionDiffers("postgres://db/public.orders@v2", "postgres://db/public.orders@v1")).toBe(true);
  });
});

describe("input versions compared like with like (which inputs neighbours share)", () => {
  // fct_orders reads stg_orders by identity (per unit) and dim_customers as of now (shared).
  const fct = { shared: new Set(["dim_customers"]), perUnit: true };

  it("per-day inputs carry a version per unit by nature: snap-0817 for 08-17 is not a mismatch", () => {
    expect(inputVersionDiffers("raw/orders@snap-0817", "raw/orders@snap-0818", { shared: new Set(), perUnit: true })).toBe(false);
    expect(inputVersionDiffers("snap-0817", "snap-0818", { shared: new Set(), perUnit: true })).toBe(false);
  });

  it("another version of the input every unit reads as of now is the mismatch, named", () => {
    expect(mismatchedInputs("dim_customers@2026-08-26,stg_orders@3", "dim_customers@2026-08-18,stg_orders@1", fct)).toEqual(["dim_customers"]);
    expect(mismatchedInputs("dim_customers@2026-08-18,stg_orders@3", "dim_customers@2026-08-18,stg_orders@1", fct)).toBeNull();
  });

  it("a writer that reads only shared inputs compares free text whole", () => {
    expect(inputVersionDiffers("snap-2", "snap-1", { shared: new Set(["dim"]), perUnit: false })).toBe(true);
  });

  it("the prevailing version is taken input by input, so per-unit inputs do not make every version unique", () => {
    expect(prevailingPerInput(["dim@1,raw@a", "dim@1,raw@b", "dim@2,raw@c", null])).toBe("dim@1,raw@c");
    expect(prevailingPerInput(["snap-0817", null])).toBeNull();
  });

  it("a version of one input counts as a version of several does, and a malformed one not at all", () => {
    expect(prevailingPerInput(["raw@a", "raw@b", "raw@a,dim@1", "raw@b", "raw@b"])).toBe("dim@1,raw@b");
    expect(prevailingPerInput(["@a", "raw@", "raw@1"])).toBe("raw@1");
    expect(prevailingPerInput(["raw@1", "raw@2"])).toBe("raw@2");
    expect(prevailingPerInput(["dim@1,broken", "dim@2"])).toBe("dim@2");
  });

  it("the prevailing version is compared for each unit as parsed once, whichever comes first", () => {
    expect(mismatchedInputs("dim@1,raw@a", "dim@1,raw@b")).toEqual(["raw"]);
    expect(mismatchedInputs("dim@2,raw@a", "dim@1,raw@b")).toEqual(["dim", "raw"]);
    expect(mismatchedInputs("dim@1", "other@1")).toEqual([]);
  });
});
