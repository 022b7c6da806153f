import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { anIncident } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { IncidentHeader } from "./IncidentHeader";

describe("IncidentHeader", () => {
  it("shows the computed severity with its reasons, the commander (the opener) and the owners of what it reaches", () => {
    renderWithQuery(<IncidentHeader incident={anIncident()} />);
    const header = screen.getByRole("region", { name: "Severity, commander and owners" });
    expect(within(header).getByTestId("severity-badge")).toHaveTextContent("SEV2");
    expect(within(header).getByTestId("severity-badge")).toHaveAttribute("title", "SEV2: read outside, critical or widely consumed");
    expect(screen.getByTestId("severity-source")).toHaveTextContent("computed from the closure:");
    expect(
      within(screen.getByTestId("severity-reasons"))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2", "7 datasets, 15 units reached → SEV3"]);
    expect(screen.getByTestId("incident-commander")).toHaveTextContent("Dana Okafor (incident commander) (demo-commander)the opener, by default");
    expect(
      within(screen.getByTestId("incident-owners"))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["finance-team (Ines Duarte) weekly_revenue_export", "orders-team stg_orders"]);
  });

  it("a severity a person set reads as theirs, with their reason, the computation beside it", () => {
    const computed = anIncident().severity!.computed;
    const incident = anIncident({
      severity: {
        level: "SEV1",
        source: "set",
        reasons: ["finance quoted W33 to the board"],
        setBy: "demo-commander",
        setAt: "2026-08-18T05:00:00.000Z",
        computed,
      },
    });
    renderWithQuery(<IncidentHeader incident={incident} />);
    expect(screen.getByTestId("severity-badge")).toHaveTextContent("SEV1");
    expect(screen.getByTestId("severity-source")).toHaveTextContent("set by demo-commander: finance quoted W33 to the board");
    expect(screen.getByText("Computed from the closure:", { exact: false })).toHaveTextContent("Computed from the closure: SEV2");
  });

  it("changes the severity with a reason, sending the contract's body, and shows the server's refusal", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post("/api/v1/incidents/inc-3/severity", async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: "demo-viewer is a viewer; this needs the operator role" }, { status: 403 });
      }),
    );
    renderWithQuery(<IncidentHeader incident={anIncident()} />);
    await userEvent.click(screen.getByRole("button", { name: "Change severity" }));
    const form = screen.getByRole("group", { name: "Change severity" });
    await userEvent.selectOptions(within(form).getByLabelText("New severity"), "SEV1");
    const confirm = within(form).getByRole("button", { name: "Confirm: change severity" });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(form).getByRole("textbox", { name: /Why/ }), "finance quoted W33 to the board");
    await userEvent.click(confirm);
    expect(await within(form).findByRole("alert")).toHaveTextContent("demo-viewer is a viewer; this needs the operator role");
    expect(bodies).toEqual([{ severity: "SEV1", reason: "finance quoted W33 to the board" }]);
  });

  it("assigns the commander by user id, the reason optional", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post("/api/v1/incidents/inc-3/commander", async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ok: true, auditSeq: 12 });
      }),
    );
    renderWithQuery(<IncidentHeader incident={anIncident()} />);
    await userEvent.click(screen.getByRole("button", { name: "Assign" }));
    const form = screen.getByRole("form", { name: "Assign the commander" });
    await userEvent.type(within(form).getByLabelText("User id (an operator or above)"), "demo-operator");
    await userEvent.click(within(form).getByRole("button", { name: "Confirm: assign" }));
    await expect.poll(() => bodies).toEqual([{ userId: "demo-operator" }]);
  });

  it("an incident opened by Reparo itself (no registered person) asks for a commander", () => {
    renderWithQuery(<IncidentHeader incident={anIncident({ openedBy: "reparo", commander: { userId: "reparo", name: null, assigned: false } })} />);
    expect(screen.getByTestId("incident-commander")).toHaveTextContent("reparoopened by Reparo or a machine token: no person commands it yet — assign one");
  });

  it("a closed incident offers no change; an incident nobody owns says the owners are unknown", () => {
    renderWithQuery(<IncidentHeader incident={anIncident({ status: "resolved", owners: [] })} />);
    expect(screen.queryByRole("button", { name: "Change severity" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Assign" })).toBeNull();
    expect(screen.getByText(/^Unknown: no task or pipeline it reaches declares an owner/)).toBeInTheDocument();
  });
});
