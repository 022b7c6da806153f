import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { aCheck, anIncident, somePreconditions } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { PreconditionsStep } from "./PreconditionsStep";

const URL = "/api/v1/incidents/inc-3/preconditions";
const checks = [
  aCheck(),
  aCheck({
    key: "side_effects",
    question: "Is it free of external side effects? (emails, exports, payments: the world cannot un-receive them)",
    verdict: "unsafe",
    detail: "weekly_revenue_export sends a file to finance.",
  }),
  aCheck({
    key: "as_of_now",
    question: "Does it read its inputs as of the unit's own date? (no as-of-now joins)",
    verdict: "unknown",
    detail: "Nothing says how it joins.",
    howToKnow: "PUT /api/v1/tasks/{id} with readsAsOfNow",
  }),
];

describe("PreconditionsStep", () => {
  it("answers each question in words — safe, unsafe, unknown counted unsafe — with how to make an unknown known", async () => {
    server.use(
      http.get(URL, () =>
        HttpResponse.json(
          somePreconditions({
            tasks: [{ taskNodeId: "job:orders:stg_orders", name: "stg_orders", pipeline: "orders", units: [["2026-08-17", "2026-08-17"]], checks }],
          }),
        ),
      ),
    );
    renderWithQuery(<PreconditionsStep id="inc-3" incident={anIncident({ status: "scoped" })} next={vi.fn()} back={vi.fn()} />);
    const sideEffects = await screen.findByTestId("check-stg_orders-side_effects");
    expect(within(sideEffects).getByText("no — unsafe")).toBeInTheDocument();
    expect(within(screen.getByTestId("check-stg_orders-idempotent")).getByText("yes — safe")).toBeInTheDocument();
    const asOfNow = screen.getByTestId("check-stg_orders-as_of_now");
    expect(within(asOfNow).getByText("unknown — counted unsafe")).toBeInTheDocument();
    expect(asOfNow).toHaveTextContent("How to make it known: PUT /api/v1/tasks/{id} with readsAsOfNow");
  });

  it("records the review only with a reason the server would accept, then moves on", async () => {
    let posted: unknown = null;
    server.use(
      http.get(URL, () => HttpResponse.json(somePreconditions())),
      http.post(URL, async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ ok: true, auditSeq: 41 });
      }),
    );
    const next = vi.fn();
    renderWithQuery(<PreconditionsStep id="inc-3" incident={anIncident({ status: "scoped" })} next={next} back={vi.fn()} />);
    const record = await screen.findByRole("button", { name: "Record review →" });
    // Disabled, it says why, on screen beside it and as its description.
    expect(record).toBeDisabled();
    expect(record).toHaveAccessibleDescription("A reason is required (at least 3 characters)");
    expect(screen.getByTestId("disabled-reason")).toBeVisible();
    await userEvent.type(screen.getByLabelText(/Review note/), "ok");
    expect(record).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Review note/), " — checked with the owner");
    expect(record).toBeEnabled();
    expect(record).not.toHaveAttribute("aria-describedby");
    expect(screen.queryByTestId("disabled-reason")).toBeNull();
    await userEvent.click(record);
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    expect(posted).toEqual({ reason: "ok — checked with the owner" });
  });

  it("shows the server's refusal and stays on the step", async () => {
    server.use(
      http.get(URL, () => HttpResponse.json(somePreconditions())),
      http.post(URL, () => HttpResponse.json({ message: "incident inc-3 is repairing: its preconditions cannot be reviewed now" }, { status: 409 })),
    );
    const next = vi.fn();
    renderWithQuery(<PreconditionsStep id="inc-3" incident={anIncident({ status: "scoped" })} next={next} back={vi.fn()} />);
    await userEvent.type(await screen.findByLabelText(/Review note/), "reviewed with the owner");
    await userEvent.click(screen.getByRole("button", { name: "Record review →" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("incident inc-3 is repairing: its preconditions cannot be reviewed now");
    expect(next).not.toHaveBeenCalled();
  });

  it("offers no review where the lifecycle does not allow one: only Next", async () => {
    server.use(http.get(URL, () => HttpResponse.json(somePreconditions())));
    renderWithQuery(<PreconditionsStep id="inc-3" incident={anIncident({ status: "resolved" })} next={vi.fn()} back={vi.fn()} />);
    expect(await screen.findByRole("button", { name: "Next →" })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Review note/)).toBeNull();
  });
});
