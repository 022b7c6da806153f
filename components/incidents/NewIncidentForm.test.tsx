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
  severity: null,
  commander: { userId: "demo-commander", name: "Dana Okafor (incident commander)", assigned: false },
  owners: [],
};

/** GET /api/v1/root-cause as the server answers for the demo's dedupe_readings 2026-07. */
const fromMeters = {
  symptom: {
    taskNodeId: "job:meters:dedupe_readings",
    units: ["2026-07"],
    wrong: [{ datasetNodeId: "dataset:warehouse:meter_readings_deduped", key: "2026-07", state: "divergent", words: "divergent from its source count" }],
  },
  roots: [
    {
      taskNodeId: "job:meters:land_meter_readings",
      datasetNodeId: "dataset:warehouse:meter_readings_raw",
      units: [{ key: "2026-07", state: "failed", words: "half-written (120 rows left by failed tries)" }],
    },
  ],
  symptomIsRoot: false,
  followable: true,
  proposedPairs: [{ nodeId: "job:meters:land_meter_readings", units: ["2026-07"] }],
  title: "meter_readings_deduped 2026-07 divergent from its source count, caused by land_meter_readings 2026-07: half-written (120 rows left by failed tries)",
  truncated: false,
  heldBy: [] as { id: string; title: string; pairs: { nodeId: string; units: string[] }[] }[],
};
const selfRoot = (units: string[]) => ({
  ...fromMeters,
  symptom: { taskNodeId: "job:orders:stg_orders", units, wrong: [] },
  roots: [],
  followable: false,
  proposedPairs: [{ nodeId: "job:orders:stg_orders", units }],
  title: "stg_orders 2026-08-17 failed",
});

describe("NewIncidentForm", () => {
  beforeEach(() => {
    router.push.mockReset();
    server.use(http.get("/api/v1/root-cause", ({ request }) => HttpResponse.json(selfRoot(new URL(request.url).searchParams.get("units")!.split(",")))));
  });

  it("opens the incident a failure link prefilled, splitting the keys, and goes to it", async () => {
    let posted: unknown = null;
    server.use(
      http.post("/api/v1/incidents", async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ ...summary, opened: true, rootCause: selfRoot(["2026-08-17"]) }, { status: 201 });
      }),
    );
    renderWithQuery(<NewIncidentForm node="job:orders:stg_orders" units="2026-08-17, 2026-08-18" />);
    const open = screen.getByRole("button", { name: "Open the incident" });
    expect(open).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "  stg_orders failed twice  ");
    await userEvent.click(open);
    await vi.waitFor(() => expect(router.push).toHaveBeenCalledWith("/incidents/inc-9"));
    expect(posted).toEqual({
      taskNodeId: "job:orders:stg_orders",
      units: ["2026-08-17", "2026-08-18"],
      rootCause: "follow",
      reason: "stg_orders failed twice",
    });
  });

  it("root cause first: a symptom shows what it comes from, the root cause is the default, and the units as given are one click", async () => {
    let posted: { rootCause?: string } | null = null;
    server.use(
      http.get("/api/v1/root-cause", () => HttpResponse.json(fromMeters)),
      http.post("/api/v1/incidents", async ({ request }) => {
        posted = (await request.json()) as { rootCause?: string };
        return HttpResponse.json({ ...summary, opened: true, rootCause: fromMeters }, { status: 201 });
      }),
    );
    renderWithQuery(<NewIncidentForm node="job:meters:dedupe_readings" units="2026-07" />);
    expect(await screen.findByTestId("root-cause-roots")).toHaveTextContent("land_meter_readings 2026-07: half-written (120 rows left by failed tries)");
    expect(screen.getByRole("radio", { name: /Open on the root cause: land_meter_readings 2026-07/ })).toBeChecked();
    expect(screen.getByLabelText(/^Title/)).toHaveAttribute("placeholder", fromMeters.title);
    await userEvent.click(screen.getByRole("radio", { name: /Open on the units as given: dedupe_readings 2026-07/ }));
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "the averages look off");
    await userEvent.click(screen.getByRole("button", { name: "Open the incident" }));
    await vi.waitFor(() => expect(posted).toMatchObject({ taskNodeId: "job:meters:dedupe_readings", rootCause: "as_given" }));
  });

  it("an open incident already holding the root cause is named, and submitting goes to it", async () => {
    const held = { ...fromMeters, heldBy: [{ id: "inc-3", title: "meters 2026-07 half-written", pairs: fromMeters.proposedPairs }] };
    server.use(
      http.get("/api/v1/root-cause", () => HttpResponse.json(held)),
      http.post("/api/v1/incidents", () => HttpResponse.json({ ...summary, id: "inc-3", opened: false, rootCause: held }, { status: 200 })),
    );
    renderWithQuery(<NewIncidentForm node="job:meters:dedupe_readings" units="2026-07" />);
    expect(await screen.findByTestId("root-cause-held")).toHaveTextContent(
      "Already handled by meters 2026-07 half-written: it holds land_meter_readings 2026-07.",
    );
    expect(screen.getByRole("link", { name: "meters 2026-07 half-written" })).toHaveAttribute("href", "/incidents/inc-3");
    await userEvent.type(screen.getByLabelText(/Why you are opening it/), "the averages look off");
    await userEvent.click(screen.getByRole("button", { name: "Go to the incident that holds them" }));
    await vi.waitFor(() => expect(router.push).toHaveBeenCalledWith("/incidents/inc-3"));
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
