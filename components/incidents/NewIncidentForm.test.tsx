import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { NewIncidentForm } from "./NewIncidentForm";

const router = { push: vi.fn() };
vi.mock("next/navigation", () => ({ useRouter: () => router }));

const summary = {
  id: "inc-9",
  title: "stg_orders failed for 2026-08-17",
  status: "open",
  pipeline: "orders",
  openedBy: "demo-commander",
  openedAt: "2026-08-18T03:00:00.000Z",
  detectedAt: "2026-08-18T02:10:00.000Z",
  resolvedAt: null,
  closedReason: null,
  originRunId: null,
  failedPairs: [{ nodeId: "job:orders:stg_orders", units: ["2026-08-17"] }],
  repairs: 0,
};

describe("NewIncidentForm", () => {
  beforeEach(() => router.push.mockReset());

  it("opens the incident a failure link prefilled, splitting the keys, and goes to it", async () => {
    let posted: unknown = null;
    server.use(
      http.post("/api/v1/incidents", async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(summary, { status: 201 });
      }),
    );
    renderWithQuery(<NewIncidentForm node="job:orders:stg_orders" units="2026-08-17, 2026-08-18" />);
    const open = screen.getByRole("button", { name: "Open the incident" });
    expect(open).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "  stg_orders failed twice  ");
    await userEvent.click(open);
    await vi.waitFor(() => expect(router.push).toHaveBeenCalledWith("/incidents/inc-9"));
    expect(posted).toEqual({ taskNodeId: "job:orders:stg_orders", units: ["2026-08-17", "2026-08-18"], reason: "stg_orders failed twice" });
  });

  it("refuses a task that is not a node id before sending anything, naming the field as the server would", async () => {
    renderWithQuery(<NewIncidentForm node="stg_orders" units="2026-08-17" />);
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "it failed");
    await userEvent.click(screen.getByRole("button", { name: "Open the incident" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("body.taskNodeId: must be a task node id like job:<namespace>:<name>");
    expect(router.push).not.toHaveBeenCalled();
  });

  it("shows the server's answer naming a unit the task does not have", async () => {
    server.use(http.post("/api/v1/incidents", () => HttpResponse.json({ message: "body.units.0: 2026-13-45 is not a unit of stg_orders" }, { status: 400 })));
    renderWithQuery(<NewIncidentForm node="job:orders:stg_orders" units="2026-13-45" />);
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "it failed");
    await userEvent.click(screen.getByRole("button", { name: "Open the incident" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("body.units.0: 2026-13-45 is not a unit of stg_orders");
  });
});
