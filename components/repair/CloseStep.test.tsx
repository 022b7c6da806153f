import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { anIncident } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { CloseStep } from "./CloseStep";

const entry = (seq: number, actor: string, actorRole: string, kind: string) => ({
  seq,
  kind,
  actor,
  actorRole,
  at: "2026-08-18T04:00:00.000Z",
  reason: "because",
  incidentId: "inc-3",
  targets: [],
  before: null,
  after: null,
  prevHash: "0",
  hash: "1",
});

describe("CloseStep", () => {
  it("sums the incident up: durations in their two largest units, repairs, and each person once", () => {
    const incident = anIncident({
      status: "resolved",
      resolvedAt: "2026-08-19T05:30:00.000Z",
      closedReason: "validated",
      timeline: [
        entry(1, "demo-commander", "commander", "incident.opened"),
        entry(2, "demo-operator", "operator", "scope.recorded"),
        entry(3, "demo-commander", "commander", "incident.resolved"),
      ],
      runs: [
        {
          id: "r9",
          status: "succeeded",
          kind: "repair",
          repairNumber: 1,
          rootRunId: "run-2026-08-17",
          parentRunId: null,
          triggeredBy: "demo-operator",
          startedAt: null,
          endedAt: null,
        },
      ],
    });
    renderWithQuery(<CloseStep id="inc-3" incident={incident} next={vi.fn()} back={vi.fn()} />);
    const summary = screen.getByTestId("close-summary");
    expect(screen.getByTestId("close-status")).toHaveTextContent("resolved — validated");
    expect(summary).toHaveTextContent("Detected → opened50 min");
    expect(summary).toHaveTextContent("Opened → closed1 d 2 h");
    expect(summary).toHaveTextContent("Repair runs#1 succeeded");
    expect(summary).toHaveTextContent("Whodemo-commander (commander), demo-operator (operator)");
    expect(within(summary).getByRole("link", { name: "in the audit log →" })).toHaveAttribute("href", "/audit?incidentId=inc-3");
    // A resolved incident can take a note but cannot be abandoned (lib/domain/incident-lifecycle.ts).
    expect(screen.getByTestId("note-open")).toBeInTheDocument();
    expect(screen.queryByTestId("abandon-open")).toBeNull();
  });

  it("abandons an open incident with a reason and says what the server refused", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post("/api/v1/incidents/inc-3/abandon", async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: "role: abandoning needs an operator" }, { status: 403 });
      }),
    );
    renderWithQuery(<CloseStep id="inc-3" incident={anIncident()} next={vi.fn()} back={vi.fn()} />);
    await userEvent.click(screen.getByTestId("abandon-open"));
    const confirm = screen.getByRole("button", { name: "Confirm: abandon the incident" });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(screen.getByTestId("abandon")).getByRole("textbox"), "the source was deleted upstream");
    await userEvent.click(confirm);
    expect(await within(screen.getByTestId("abandon")).findByRole("alert")).toHaveTextContent("role: abandoning needs an operator");
    expect(bodies).toEqual([{ reason: "the source was deleted upstream" }]);
  });
});
