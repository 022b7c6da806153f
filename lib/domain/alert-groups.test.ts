import { describe, expect, it } from "vitest";
import { groupAlertsByRootCause, type RootedAlert } from "./alert-groups";
import type { NodeId } from "./ids";
import type { RootCause } from "./root-cause";

const root = (task: string, ...keys: string[]): RootCause => ({
  taskNodeId: `job:orders:${task}` as NodeId,
  datasetNodeId: `dataset:warehouse:${task}` as NodeId,
  units: keys.map((key) => ({ key, state: "failed" as const })),
});
const alert = (id: string, severity: RootedAlert["severity"], ...roots: RootCause[]): RootedAlert => ({ id, severity, roots });

describe("alerts grouped by root cause", () => {
  it("alerts leading to the same root units are one group; another set of roots is another group", () => {
    const groups = groupAlertsByRootCause([
      alert("task_failed stg", "critical", root("stg", "08-17", "08-23")),
      alert("missing revenue", "critical", root("stg", "08-23", "08-17")),
      alert("dup stg", "critical", root("stg", "08-10")),
      alert("balance", "warning", root("stg", "08-10", "08-17"), root("stg", "08-23")),
    ]);
    expect(groups.map((g) => g.alertIds)).toEqual([["task_failed stg", "missing revenue"], ["dup stg"], ["balance"]]);
    expect(groups[0]!.roots).toEqual([root("stg", "08-17", "08-23")]);
    // The same roots met twice are named once, merged per dataset and in key order.
    expect(groups[2]!.roots).toEqual([root("stg", "08-10", "08-17", "08-23")]);
  });

  it("an id that holds while the roots hold, whichever alert came first", () => {
    const a = groupAlertsByRootCause([alert("x", "critical", root("stg", "08-17")), alert("y", "warning", root("stg", "08-17"))]);
    const b = groupAlertsByRootCause([alert("y", "warning", root("stg", "08-17")), alert("x", "critical", root("stg", "08-17"))]);
    expect(a[0]!.id).toBe(b[0]!.id);
    expect(a[0]!.id).toMatch(/^roots\|[0-9a-f]{16}$/);
  });

  it("an alert with no root (a failed check) is a group of its own; critical groups first, then the largest", () => {
    const groups = groupAlertsByRootCause([
      alert("w1", "warning", root("a", "1")),
      alert("w2", "warning", root("a", "1")),
      alert("check", "critical"),
      alert("check2", "critical"),
    ]);
    expect(groups.map((g) => [g.id, g.severity])).toEqual([
      ["alert|check", "critical"],
      ["alert|check2", "critical"],
      [expect.stringMatching(/^roots\|/), "warning"],
    ]);
  });
});
