import { describe, expect, it } from "vitest";
import type { TaskId } from "./ids";
import { resolveStrategyOptions, type ScopeFacts, type Strategy } from "./repair-strategies";

const clean: ScopeFacts = {
  sequentialSeeds: [],
  sequentialInScope: [],
  atomicSetInScope: [],
  seedTaskCount: 1,
  downstreamAlreadyBuilt: 0,
  unreproducibleSources: [],
  unpublishedSeedUnits: 2,
  hasEvidence: false,
};
const verdicts = (f: ScopeFacts) =>
  Object.fromEntries(resolveStrategyOptions(f).map((o) => [o.strategy, o.enabled ? "on" : o.why.map((w) => w.code).join(",")])) as Record<Strategy, string>;
const recommended = (f: ScopeFacts) => resolveStrategyOptions(f).find((o) => o.recommended)!.strategy;
const balance = "job:reparo:running_balance" as TaskId;

describe("resolveStrategyOptions", () => {
  it("a well-built graph (independent, idempotent, immutable): closure is the default, sequential/atomic options off", () => {
    expect(verdicts(clean)).toEqual({
      targeted: "on",
      targeted_with_closure: "on",
      recompute_forward: "no_sequential_model",
      full_rerun: "on",
      atomic_set_republish: "no_atomic_set",
      mark_known_bad: "on",
      skip_with_omission: "on",
      mark_success: "evidence_required,unpublished_units",
    });
    expect(recommended(clean)).toBe("targeted_with_closure");
  });

  it("seed 000: a sequential seed removes targeted and recommends recompute forward", () => {
    const f = { ...clean, sequentialSeeds: [balance], sequentialInScope: [balance] };
    expect(verdicts(f).targeted).toBe("sequential_targeted");
    expect(verdicts(f).recompute_forward).toBe("on");
    expect(recommended(f)).toBe("recompute_forward");
    expect(resolveStrategyOptions(f)[0]!.why[0]!.message).toContain("running_balance");
  });

  it("seed 001: targeted only when nothing downstream has run yet", () => {
    expect(verdicts({ ...clean, downstreamAlreadyBuilt: 4 }).targeted).toBe("downstream_already_built");
  });

  it("seed 000: an atomic-set publish disables partial strategies and recommends republishing the set", () => {
    const f = { ...clean, atomicSetInScope: ["job:x:close" as TaskId] };
    expect(verdicts(f)).toMatchObject({ targeted: "atomic_set_partial", targeted_with_closure: "atomic_set_partial", atomic_set_republish: "on" });
    expect(recommended(f)).toBe("atomic_set_republish");
  });

  it("seed 000: a moved source rules out the full re-run", () => {
    expect(verdicts({ ...clean, unreproducibleSources: ["dataset:reparo:dim_customers"] }).full_rerun).toBe("source_not_reproducible");
  });

  it("seed 001: mark success needs evidence and published units; mark-type strategies require a reason", () => {
    expect(verdicts({ ...clean, hasEvidence: true, unpublishedSeedUnits: 0 }).mark_success).toBe("on");
    const opts = resolveStrategyOptions(clean);
    expect(opts.find((o) => o.strategy === "mark_success")!.requires).toEqual(["reason", "evidence"]);
    expect(opts.find((o) => o.strategy === "skip_with_omission")!.requires).toEqual(["reason"]);
  });
});
