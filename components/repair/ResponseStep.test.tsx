import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import type { PlanOptions, PlanView } from "@/lib/contracts/repair";
import { anIncident } from "@/test/components/builders";
import { aBlocker, anAppendBlocker, aPlan } from "@/test/components/repair-builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { ResponseStep } from "./ResponseStep";

const BASE = "/api/v1/incidents/inc-3";

/** The wizard's part: it holds the options the step sets (and the Plan step previews next). */
function Harness({ incident, next, seen }: { incident: IncidentDetail; next: () => void; seen: (o: PlanOptions) => void }) {
  const [options, setOptions] = useState<PlanOptions>({ replay: [], parameterOverrides: {} });
  return (
    <ResponseStep
      id="inc-3"
      incident={incident}
      next={next}
      back={vi.fn()}
      options={options}
      setOptions={(o) => {
        seen(o);
        setOptions(o);
      }}
    />
  );
}

/** Answers each preview with `plans(body)`, keeping the bodies it was asked with. */
function render(plans: (body: PlanOptions) => PlanView, status: IncidentDetail["status"] = "scoped") {
  const asked: PlanOptions[] = [];
  server.use(
    http.post(`${BASE}/plan/preview`, async ({ request }) => {
      const body = (await request.json()) as PlanOptions;
      asked.push(body);
      return HttpResponse.json(plans(body));
    }),
  );
  const next = vi.fn();
  const seen = vi.fn();
  renderWithQuery(<Harness incident={anIncident({ status })} next={next} seen={seen} />);
  return { asked, next, seen };
}

/** Opens an intervention, gives its reason and confirms it. */
async function confirmIntervention(testId: string, reason: string) {
  await userEvent.click(await screen.findByTestId(`${testId}-open`));
  const box = screen.getByTestId(testId);
  await userEvent.click(within(box).getByLabelText(/Why/));
  await userEvent.paste(reason);
  await userEvent.click(within(box).getByRole("button", { name: /^Confirm:/ }));
}

const radio = (strategy: string) => within(screen.getByTestId(`strategy-${strategy}`)).getByRole("radio");

describe("ResponseStep", () => {
  it("offers each response with when it is right and what it costs; one whose precondition fails is disabled and says which", async () => {
    render(() => aPlan());
    expect(await screen.findByTestId("strategy-targeted_with_closure")).toHaveTextContent("Repair + downstream closurerecommended");
    expect(radio("targeted_with_closure")).toBeChecked();
    expect(screen.getByTestId("strategy-recompute_forward")).toHaveTextContent("What it costs: Grows with the age of the failure.");
    expect(radio("atomic_set_republish")).toBeDisabled();
    expect(screen.getByTestId("strategy-atomic_set_republish")).toHaveTextContent("No task in scope publishes as an atomic set.");
    expect(radio("targeted")).toBeDisabled();
    expect(screen.getByTestId("strategy-targeted")).toHaveTextContent("11 downstream pairs already ran on the bad units and would stay stale.");
    // The marks are offered even when they cannot be used as they stand: their card says what they need.
    expect(radio("mark_success")).toBeEnabled();
    expect(screen.getByTestId("no-blockers")).toHaveTextContent("Nothing blocks this plan.");
  });

  it("choosing another response plans it again, and Preview carries the choice to the Plan step", async () => {
    const { asked, next, seen } = render((body) => aPlan({ strategy: body.strategy ?? "targeted_with_closure" }));
    await userEvent.click(await screen.findByRole("radio", { name: /Recompute forward/ }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ strategy: "recompute_forward", replay: [], parameterOverrides: {} }));
    expect(radio("recompute_forward")).toBeChecked();
    await userEvent.click(screen.getByRole("button", { name: "Preview the plan →" }));
    expect(next).toHaveBeenCalledOnce();
    expect(seen).toHaveBeenLastCalledWith({ strategy: "recompute_forward", replay: [], parameterOverrides: {} });
  });

  it("names each blocker with the intervention that lifts it, and holds Preview back until they are lifted", async () => {
    render(() =>
      aPlan({
        blockers: [
          anAppendBlocker(),
          aBlocker({
            code: "waits_on_upstream",
            message: "running_balance 2026-08-17…2026-08-25 reads stg_orders 2026-08-23 (failed), which this plan does not re-run.",
            resolution: {
              kind: "add_pairs",
              taskNodeId: "job:orders:stg_orders",
              units: ["2026-08-23"],
              datasetNodeId: null,
              rowsInUnits: [],
              cleanable: null,
            },
          }),
        ],
      }),
    );
    const append = await screen.findByTestId("blocker-append_unresolved");
    expect(append).toHaveTextContent("append unresolved: stg_orders appends");
    expect(within(append).getByTestId("rows-in-unit")).toHaveTextContent("20 rows already in the unit");
    expect(append).toHaveTextContent("delete from stg_orders where order_date = '2026-08-17'");
    expect(within(append).getByRole("button", { name: "Clean 2026-08-17" })).toBeInTheDocument();
    expect(within(append).getByRole("button", { name: "Declare stg_orders fixed to replace" })).toBeInTheDocument();
    const upstream = screen.getByTestId("blocker-waits_on_upstream");
    expect(within(upstream).getByRole("button", { name: "Add stg_orders 2026-08-23 to this incident" })).toBeInTheDocument();
    const preview = screen.getByRole("button", { name: "Preview the plan →" });
    expect(preview).toBeDisabled();
    expect(preview).toHaveAccessibleDescription("2 blockers above must be lifted first");
  });

  it("cleaning the appended unit sends it with the reason; the plan asked again, nothing blocks it", async () => {
    let cleaned = false;
    const sent: unknown[] = [];
    server.use(
      http.post(`${BASE}/clean-unit`, async ({ request }) => {
        sent.push(await request.json());
        cleaned = true;
        return HttpResponse.json({ ok: true, auditSeq: 15, rowsRemoved: 20, rowsAfter: 0, warehouse: "demo", statement: "delete …" });
      }),
    );
    render(() => aPlan({ blockers: cleaned ? [] : [anAppendBlocker()] }));
    await confirmIntervention("clean-2026-08-17", "remove the 20 partial rows before re-running the append");
    expect(await screen.findByTestId("no-blockers")).toBeInTheDocument();
    expect(sent).toEqual([{ taskNodeId: "job:orders:stg_orders", unitKey: "2026-08-17", reason: "remove the 20 partial rows before re-running the append" }]);
    expect(screen.getByRole("button", { name: "Preview the plan →" })).toBeEnabled();
  });

  it("adding the upstream failure re-scopes the incident with it", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${BASE}/scope`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ok: true, auditSeq: 16 });
      }),
    );
    const blocker = aBlocker({
      code: "waits_on_upstream",
      message: "running_balance reads stg_orders 2026-08-23 (failed).",
      resolution: { kind: "add_pairs", taskNodeId: "job:orders:stg_orders", units: ["2026-08-23"], datasetNodeId: null, rowsInUnits: [], cleanable: null },
    });
    render(() => aPlan({ blockers: [blocker] }));
    await confirmIntervention("add-stg_orders", "running_balance needs it");
    await vi.waitFor(() =>
      expect(sent).toEqual([{ reason: "running_balance needs it", addPairs: [{ taskNodeId: "job:orders:stg_orders", units: ["2026-08-23"] }] }]),
    );
  });

  it("replays an excluded side-effecting task only with an idempotency key, and plans with it", async () => {
    const { asked } = render(() => aPlan());
    const excluded = await screen.findByTestId("excluded-weekly_revenue_export");
    const replay = within(excluded).getByRole("button", { name: "Replay with this key" });
    expect(replay).toBeDisabled();
    expect(replay).toHaveAccessibleDescription("Enter an idempotency key first");
    await userEvent.click(within(excluded).getByLabelText(/Idempotency key/));
    await userEvent.paste("weekly-2026-W34-resend");
    await userEvent.click(replay);
    await vi.waitFor(() =>
      expect(asked.at(-1)).toEqual({
        replay: [{ taskNodeId: "job:finance:weekly_revenue_export", idempotencyKey: "weekly-2026-W34-resend" }],
        parameterOverrides: {},
      }),
    );
    expect(screen.getByTestId("side-effects-heading")).toHaveTextContent("External side effects: excluded and replayed");
  });

  it("a mark instead of a repair: the failed units are marked with the reason, no plan to preview", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${BASE}/marks`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ok: true, auditSeq: 17 });
      }),
    );
    render((body) => aPlan({ strategy: body.strategy ?? "targeted_with_closure" }));
    await userEvent.click(await screen.findByRole("radio", { name: /Mark known-bad/ }));
    expect(await screen.findByTestId("mark-units")).toHaveTextContent("stg_orders 2026-08-17");
    expect(screen.queryByRole("button", { name: "Preview the plan →" })).toBeNull();
    await confirmIntervention("mark-known_bad", "the source sent wrong orders for that day");
    expect(await screen.findByText(/Recorded\. The incident moves to validation/)).toBeInTheDocument();
    expect(sent).toEqual([
      { kind: "known_bad", taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], reason: "the source sent wrong orders for that day" },
    ]);
  });
});
