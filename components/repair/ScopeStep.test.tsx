import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import type { ScopeWithLayout } from "@/lib/contracts/repair";
import { anIncident } from "@/test/components/builders";
import { aScope, aScopeNode } from "@/test/components/repair-builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import { ScopeStep } from "./ScopeStep";

const URL = "/api/v1/incidents/inc-3/scope";

function render(scope: ScopeWithLayout, status: IncidentDetail["status"] = "open") {
  server.use(http.get(URL, () => HttpResponse.json(scope)));
  const next = vi.fn();
  renderWithQuery(<ScopeStep id="inc-3" incident={anIncident({ status })} next={next} back={vi.fn()} />);
  return next;
}

/** Types a reason as a paste: the field's rule is what is tested, not the keystrokes. */
async function giveReason(text: string) {
  await userEvent.click(await screen.findByLabelText(/Why this scope/));
  await userEvent.paste(text);
}

/** What the step sent when the scope was recorded. */
function recordScope() {
  const sent: unknown[] = [];
  server.use(
    http.post(URL, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ ok: true, auditSeq: 7 });
    }),
  );
  return sent;
}

describe("ScopeStep", () => {
  it("lists every node of the closure with its units and what it holds now, and counts the pairs as the closure does", async () => {
    render(aScope());
    const table = await screen.findByTestId("scope-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-testid"))).toEqual([
      "scope-stg_orders-task",
      "scope-stg_orders-dataset",
      "scope-fct_orders-task",
      "scope-fct_orders-dataset",
      "scope-running_balance-task",
      "scope-running_balance-dataset",
    ]);
    // The failed pair is marked as such; the running balance is rebuilt from the failed day to the end.
    expect(screen.getByTestId("scope-stg_orders-task")).toHaveTextContent("task · orders · failed");
    expect(screen.getByTestId("scope-stg_orders-task")).toHaveTextContent("2026-08-17 (1)");
    expect(screen.getByTestId("scope-running_balance-dataset")).not.toHaveTextContent("· failed");
    expect(screen.getByTestId("scope-running_balance-dataset")).toHaveTextContent("2026-08-17 → 2026-08-25 (9)");
    expect(within(screen.getByTestId("scope-running_balance-dataset")).getAllByRole("cell")[2]).toHaveTextContent("blocked");
    // 1 + 1 + 9 task units: the (task, unit) pairs a repair of the closure re-runs.
    expect(screen.getByText(/every \(task, unit\) downstream of them/)).toHaveTextContent("partition mappings: 11 pairs.");
    // The closure's matrix: one row per dataset, one cell per unit in scope.
    const matrix = screen.getByTestId("scope-matrix");
    expect(within(matrix).getByRole("list", { name: "running_balance: 9 units" })).toBeInTheDocument();
    expect(within(matrix).getByRole("listitem", { name: "2026-08-17: failed" })).toBeInTheDocument();
    const graph = screen.getByRole("figure", { name: "Scope graph: 6 nodes, 5 edges" });
    expect(within(graph).getByTestId("scope-graph-node-stg_orders-task")).toHaveAttribute("data-seed", "true");
    expect(within(graph).getAllByTestId("seed-mark")).toHaveLength(1);
    expect(within(graph).getByTestId("scope-graph-node-running_balance-dataset")).toHaveAttribute("data-worst", "blocked");
    expect(within(within(graph).getByTestId("scope-graph-node-running_balance-dataset")).getByTestId("scope-graph-units")).toHaveTextContent(
      "2026-08-17 → 2026-08-25 (9 units)",
    );
  });

  it("says one pair in the singular, and links to the same selection on the lineage graph", async () => {
    render(aScope({ nodes: [aScopeNode({ seed: true })], waitsOn: [] }));
    expect(await screen.findByText(/partition mappings: 1 pair\./)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See it on the lineage graph →" })).toHaveAttribute(
      "href",
      "/lineage?node=job%3Aorders%3Astg_orders&units=2026-08-17",
    );
  });

  it("warns of the upstream failures the closure cannot be rebuilt without, and adds them to the incident when ticked", async () => {
    const sent = recordScope();
    const next = render(aScope());
    const warning = await screen.findByTestId("waits-on");
    expect(warning).toHaveTextContent(
      "stg_orders 2026-08-10 (duplicate), 2026-08-23 (failed): nothing in this incident re-runs them, so running_balance 2026-08-17…2026-08-25 cannot be rebuilt soundly",
    );
    expect(within(warning).getByRole("checkbox", { name: "Add stg_orders 2026-08-10, 2026-08-23 to this incident" })).toBeChecked();
    await giveReason("running_balance cannot be rebuilt without them");
    await userEvent.click(screen.getByRole("button", { name: "Add and re-scope" }));
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    expect(sent).toEqual([
      { reason: "running_balance cannot be rebuilt without them", addPairs: [{ taskNodeId: "job:orders:stg_orders", units: ["2026-08-10", "2026-08-23"] }] },
    ]);
  });

  it("unticked, the upstream failures stay out: the scope is confirmed as it is", async () => {
    const sent = recordScope();
    const next = render(aScope());
    await userEvent.click(await screen.findByRole("checkbox", { name: /^Add stg_orders/ }));
    expect(screen.queryByRole("button", { name: "Add and re-scope" })).toBeNull();
    await giveReason("2026-08-10 and 2026-08-23 have their own incident");
    await userEvent.click(screen.getByRole("button", { name: "Confirm scope →" }));
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    expect(sent).toEqual([{ reason: "2026-08-10 and 2026-08-23 have their own incident", addPairs: [] }]);
  });

  it("holds the confirmation back until a reason is given, saying why", async () => {
    render(aScope({ waitsOn: [] }));
    const confirm = await screen.findByRole("button", { name: "Confirm scope →" });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription("A reason is required (at least 3 characters)");
    await giveReason("the closure is right");
    expect(confirm).toBeEnabled();
  });

  it("shows the server's refusal and stays on the step", async () => {
    server.use(
      http.post(URL, () => HttpResponse.json({ message: "incident inc-3 is repairing: scope needs it open, scoped, planned or validating" }, { status: 409 })),
    );
    const next = render(aScope({ waitsOn: [] }));
    await giveReason("the closure is right");
    await userEvent.click(screen.getByRole("button", { name: "Confirm scope →" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("incident inc-3 is repairing: scope needs it open, scoped, planned or validating");
    expect(next).not.toHaveBeenCalled();
  });

  it("while the repair runs the scope is only shown: no reason, no confirmation, Next", async () => {
    const next = render(aScope(), "repairing");
    await userEvent.click(await screen.findByRole("button", { name: "Next →" }));
    expect(next).toHaveBeenCalledOnce();
    expect(screen.queryByLabelText(/Why this scope/)).toBeNull();
    expect(screen.queryByRole("button", { name: /Confirm scope|Add and re-scope/ })).toBeNull();
  });

  it("says so when the scope cannot be computed", async () => {
    server.use(http.get(URL, () => HttpResponse.json({ message: "incident inc-3 has no failed pair left in the lineage" }, { status: 422 })));
    renderWithQuery(<ScopeStep id="inc-3" incident={anIncident()} next={vi.fn()} back={vi.fn()} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not compute the scope: incident inc-3 has no failed pair left in the lineage");
  });
});
