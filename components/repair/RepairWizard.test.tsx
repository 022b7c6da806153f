import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { useSyncExternalStore } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { IncidentDetail } from "@/lib/contracts/incidents";
import { anIncident, aProgress, aUnitValidation, somePreconditions } from "@/test/components/builders";
import { aPlan, aScope } from "@/test/components/repair-builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { RepairWizard } from "./RepairWizard";

// The step is the URL's last segment (/incidents/{id}/{step}): a tiny router whose push() changes
// the segment the wizard reads, as Next's does, and remembers where it was sent.
const nav = vi.hoisted(() => {
  let segment: string | null = null;
  const listeners = new Set<() => void>();
  const pushed: { url: string; options: unknown }[] = [];
  return {
    pushed,
    get: () => segment,
    set(s: string | null) {
      segment = s;
      listeners.forEach((l) => l());
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
});
vi.mock("next/navigation", () => ({
  useSelectedLayoutSegment: () => useSyncExternalStore(nav.subscribe, nav.get, nav.get),
  useRouter: () => ({
    push: (url: string, options: unknown) => {
      nav.pushed.push({ url, options });
      nav.set(url.split("/").pop()!);
    },
  }),
}));

const BASE = "/api/v1/incidents/inc-3";

function render(incident: IncidentDetail) {
  server.use(http.get(BASE, () => HttpResponse.json(incident)));
  return renderWithQuery(<RepairWizard id="inc-3" />);
}

const heading = () => screen.getByRole("heading", { level: 2, name: /^\d\. / });
const current = () =>
  within(screen.getByRole("navigation", { name: "Repair steps" }))
    .getAllByRole("link")
    .filter((l) => l.getAttribute("aria-current") === "step")
    .map((l) => l.textContent);

describe("RepairWizard", () => {
  beforeEach(() => {
    nav.set(null);
    nav.pushed.length = 0;
    // Each step reads its own part of the incident.
    server.use(
      http.get(`${BASE}/scope`, () => HttpResponse.json(aScope())),
      http.get(`${BASE}/preconditions`, () => HttpResponse.json(somePreconditions())),
      http.post(`${BASE}/plan/preview`, () => HttpResponse.json(aPlan())),
      http.get(`${BASE}/progress`, () => HttpResponse.json(aProgress("succeeded"))),
      http.get(`${BASE}/validation`, () => HttpResponse.json({ passed: true, units: [aUnitValidation()], failedUnits: 0, accountedByMarks: 0 })),
    );
  });

  it.each([
    ["open", "1. Scope"],
    ["scoped", "2. Preconditions"],
    ["planned", "5. Execute"],
    ["validating", "6. Validate"],
    ["resolved", "8. Close"],
  ] as const)("opened without a step, an incident %s resumes where its next decision is: %s", async (status, step) => {
    render(anIncident({ status }));
    expect(await screen.findByRole("heading", { level: 2, name: step })).toBeInTheDocument();
    expect(current()).toEqual([step]);
    expect(screen.getByTestId("incident-status")).toHaveTextContent(status);
  });

  it("opens the step its URL names, whatever the incident awaits", async () => {
    nav.set("plan");
    render(anIncident({ status: "open" }));
    expect(await screen.findByRole("heading", { level: 2, name: "4. Plan" })).toBeInTheDocument();
    expect(await screen.findByTestId("plan-cost")).toBeInTheDocument();
    expect(current()).toEqual(["4. Plan"]);
  });

  it("names every step as a link to its own URL, in order", async () => {
    render(anIncident({ title: "stg_orders 2026-08-17 half-written (20 rows left by failed tries)" }));
    expect(await screen.findByRole("heading", { level: 1, name: "stg_orders 2026-08-17 half-written (20 rows left by failed tries)" })).toBeInTheDocument();
    const links = within(screen.getByRole("navigation", { name: "Repair steps" })).getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([
      ["1. Scope", "/incidents/inc-3/scope"],
      ["2. Preconditions", "/incidents/inc-3/preconditions"],
      ["3. Response", "/incidents/inc-3/response"],
      ["4. Plan", "/incidents/inc-3/plan"],
      ["5. Execute", "/incidents/inc-3/execute"],
      ["6. Validate", "/incidents/inc-3/validate"],
      ["7. Communicate", "/incidents/inc-3/communicate"],
      ["8. Close", "/incidents/inc-3/close"],
    ]);
  });

  it("moves forward and back step by step, each step's heading taking the focus (not on the first load)", async () => {
    nav.set("scope");
    // Resolved: every step is only shown, so Next and Back are the only ways on.
    render(anIncident({ status: "resolved" }));
    await screen.findByRole("heading", { level: 2, name: "1. Scope" });
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(await screen.findByRole("button", { name: "Next →" }));
    expect(nav.pushed).toEqual([{ url: "/incidents/inc-3/preconditions", options: { scroll: false } }]);
    expect(heading()).toHaveTextContent("2. Preconditions");
    expect(document.activeElement).toBe(heading());
    expect(current()).toEqual(["2. Preconditions"]);
    await userEvent.click(await screen.findByRole("button", { name: "← Back" }));
    expect(nav.pushed.at(-1)).toEqual({ url: "/incidents/inc-3/scope", options: { scroll: false } });
    expect(heading()).toHaveTextContent("1. Scope");
    expect(document.activeElement).toBe(heading());
  });

  it("says so when the incident cannot be loaded", async () => {
    server.use(http.get(BASE, () => HttpResponse.json({ message: "no incident inc-3" }, { status: 404 })));
    renderWithQuery(<RepairWizard id="inc-3" />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load incident inc-3: no incident inc-3");
  });
});
