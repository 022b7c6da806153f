import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { PlanOptions, PlanView } from "@/lib/contracts/repair";
import { anIncident } from "@/test/components/builders";
import { aBlocker, aPlan } from "@/test/components/repair-builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { PlanStep } from "./PlanStep";

const BASE = "/api/v1/incidents/inc-3";
const NO_OPTIONS: PlanOptions = { replay: [], parameterOverrides: {} };

/** Answers the preview with `plan`, keeping each body it was asked with. */
function render(plan: PlanView, { status = "scoped", options = NO_OPTIONS }: { status?: IncidentDetail["status"]; options?: PlanOptions } = {}) {
  const asked: unknown[] = [];
  server.use(
    http.post(`${BASE}/plan/preview`, async ({ request }) => {
      asked.push(await request.json());
      return HttpResponse.json(plan);
    }),
  );
  const next = vi.fn();
  const onReviewed = vi.fn();
  renderWithQuery(
    <PlanStep id="inc-3" incident={anIncident({ status })} next={next} back={vi.fn()} options={options} reviewed={null} onReviewed={onReviewed} />,
  );
  return { asked, next, onReviewed };
}

async function giveReason(text: string) {
  await userEvent.click(await screen.findByLabelText(/Why this plan/));
  await userEvent.paste(text);
}

const confirmButton = () => screen.findByRole("button", { name: "Confirm plan →" });

describe("PlanStep", () => {
  it("previews the plan for the options chosen: the pairs wave by wave, the cost against a full re-run, what it leaves out", async () => {
    const options: PlanOptions = { strategy: "targeted_with_closure", replay: [], parameterOverrides: { full_refresh: "false" } };
    const { asked } = render(aPlan({ parameterOverrides: { full_refresh: "false" } }), { options });
    expect(await screen.findByTestId("plan-cost")).toHaveTextContent(
      "Strategy targeted with closure: recomputes 11 units of 3 tasks, against 300 for a full re-run of the same tasks.",
    );
    expect(asked).toEqual([options]);
    expect(screen.getByTestId("wave-0")).toHaveTextContent("Wave 1");
    expect(screen.getByTestId("wave-0")).toHaveTextContent("stg_orders orders2026-08-171 unit");
    expect(screen.getByTestId("wave-2")).toHaveTextContent("running_balance orders2026-08-17 → 2026-08-259 units");
    expect(screen.getByTestId("plan-excluded-weekly_revenue_export")).toHaveTextContent(
      "Excluded: weekly_revenue_export 2026-W34 — excluded by default: it sends a file outside the platform",
    );
    expect(screen.getByText(/Parameter overrides/)).toHaveTextContent('{"full_refresh":"false"}');
    expect(screen.getByText("None.")).toBeInTheDocument();
  });

  it("shows the exports as tabs of one tablist, the first one's request in its panel", async () => {
    render(aPlan());
    const tablist = await screen.findByRole("tablist", { name: "Orchestrator" });
    expect(
      within(tablist)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual(["Airflow clear", "Dagster backfill", "Databricks repair", "dbt command"]);
    expect(screen.getByRole("tab", { name: "Airflow clear" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel", { name: "Airflow clear" })).toHaveTextContent("/api/v2/dags/orders/clearTaskInstances");
    await userEvent.click(screen.getByRole("tab", { name: "dbt command" }));
    expect(screen.getByRole("tabpanel", { name: "dbt command" })).toHaveTextContent("dbt build --select stg_orders+");
  });

  it("confirms the plan it shows with the reason given, then moves on", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${BASE}/plan`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ok: true, auditSeq: 12 });
      }),
    );
    const { next } = render(aPlan());
    const confirm = await confirmButton();
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription("A reason is required (at least 3 characters)");
    await giveReason("repair the failed day and everything built on it");
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    // The strategy is the one previewed (the recommended one: no strategy was chosen), not left to the server.
    expect(sent).toEqual([
      { strategy: "targeted_with_closure", reason: "repair the failed day and everything built on it", replay: [], parameterOverrides: {} },
    ]);
  });

  it("while blocked: each blocker said, no dry run offered, and Confirm disabled with its reason even with one given", async () => {
    const blockers = [
      aBlocker(),
      aBlocker({
        code: "waits_on_upstream",
        message: "running_balance 2026-08-17…2026-08-25 reads stg_orders 2026-08-23 (failed), which this plan does not re-run.",
        keyRanges: [["2026-08-23", "2026-08-23"]],
      }),
    ];
    render(aPlan({ blockers }));
    expect(await screen.findByText(/re-running 2026-08-17 would add a second copy/)).toBeInTheDocument();
    expect(screen.getByText(/reads stg_orders 2026-08-23 \(failed\), which this plan does not re-run/)).toBeInTheDocument();
    expect(screen.queryByTestId("dry-run")).toBeNull();
    await giveReason("repair the failed day and everything built on it");
    const confirm = await confirmButton();
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription("2 blockers above must be lifted first");
    expect(screen.getByTestId("disabled-reason")).toHaveTextContent("2 blockers above must be lifted first");
  });

  it("a plan that recomputes nothing cannot be confirmed: it says so, and that its one task is excluded", async () => {
    const blocker = aBlocker({
      code: "nothing_to_recompute",
      message:
        "This plan recomputes no unit: every task in it is excluded (weekly_revenue_export). Choose another response, or replay a side-effecting task with an idempotency key.",
      node: null,
      keyRanges: [],
    });
    render(aPlan({ waves: [], blockers: [blocker] }));
    expect(await screen.findByTestId("plan-cost")).toHaveTextContent("recomputes 0 units of 0 tasks, against 0 for a full re-run");
    expect(screen.queryByTestId("wave-0")).toBeNull();
    expect(screen.getByText(/This plan recomputes no unit: every task in it is excluded \(weekly_revenue_export\)/)).toBeInTheDocument();
    expect(screen.getByTestId("plan-excluded-weekly_revenue_export")).toBeInTheDocument();
    await giveReason("nothing else to do");
    expect(await confirmButton()).toBeDisabled();
    expect(await confirmButton()).toHaveAccessibleDescription("1 blocker above must be lifted first");
  });

  it("asks the orchestrators for a dry run of the plan previewed, and hands the review on with the plan it was of", async () => {
    const preview: DispatchPreview = {
      requests: [{ orchestrator: "airflow", pipeline: "orders", wave: 0, method: "POST", path: "/api/v2/dags/orders/clearTaskInstances", body: {} }],
      unsupported: [],
      extra: [{ label: "orders.weekly_export @ 2026-08-17", taskNodeId: "job:finance:weekly_revenue_export", unitKey: "2026-W34", sideEffect: true }],
      missing: [],
      calls: [],
      digest: "0123456789abcdef0123456789abcdef",
      dispatchable: true,
    };
    const asked: unknown[] = [];
    server.use(
      http.post(`${BASE}/plan/dry-run`, async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json(preview);
      }),
    );
    const { onReviewed } = render(aPlan());
    await userEvent.click(await screen.findByRole("button", { name: "Run the dry run" }));
    expect(await screen.findByTestId("dry-run-side-effects")).toHaveTextContent(
      "The orchestrator would also run 1 side-effecting task instance the plan leaves out: orders.weekly_export @ 2026-08-17.",
    );
    expect(asked).toEqual([{ strategy: "targeted_with_closure", replay: [], parameterOverrides: {} }]);
    expect(onReviewed).toHaveBeenCalledWith({ preview, planKey: expect.stringContaining("targeted_with_closure") });
  });

  it("once the repair runs the plan is only shown: no reason, no confirmation, Next", async () => {
    const { next } = render(aPlan(), { status: "repairing" });
    await userEvent.click(await screen.findByRole("button", { name: "Next →" }));
    expect(next).toHaveBeenCalledOnce();
    expect(screen.queryByLabelText(/Why this plan/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Confirm plan →" })).toBeNull();
  });

  it("says so when the plan cannot be made", async () => {
    server.use(http.post(`${BASE}/plan/preview`, () => HttpResponse.json({ message: "replay: an idempotency key is required" }, { status: 400 })));
    renderWithQuery(
      <PlanStep
        id="inc-3"
        incident={anIncident({ status: "scoped" })}
        next={vi.fn()}
        back={vi.fn()}
        options={NO_OPTIONS}
        reviewed={null}
        onReviewed={vi.fn()}
      />,
    );
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not plan: replay: an idempotency key is required");
  });
});
