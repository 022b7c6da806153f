import { describe, expect, it } from "vitest";
import { allowedActions, type IncidentStatus } from "@/lib/domain/incident-lifecycle";
import { STEP_SLUGS, STEPS, stepForActions } from "./wizard-steps";

describe("where the wizard opens", () => {
  it.each<[IncidentStatus, (typeof STEPS)[number]]>([
    ["open", "Scope"],
    ["scoped", "Preconditions"],
    ["planned", "Execute"],
    ["repairing", "Execute"],
    ["validating", "Validate"],
    ["resolved", "Close"],
    ["abandoned", "Close"],
  ])("an incident %s opens at %s: the decision its allowed actions await", (status, step) => {
    expect(STEPS[stepForActions(allowedActions(status))]).toBe(step);
  });
});

describe("the steps", () => {
  it("tell people before closing: Communicate comes right before Close, with its own URL", () => {
    expect(STEPS.slice(-2)).toEqual(["Communicate", "Close"]);
    expect(STEP_SLUGS[STEPS.indexOf("Communicate")]).toBe("communicate");
  });
});
