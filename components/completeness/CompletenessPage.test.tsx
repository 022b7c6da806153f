import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { aCompleteness, aDatasetOption } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { CompletenessPage } from "./CompletenessPage";

const nav = vi.hoisted(() => ({ search: "dataset=dataset%3Awarehouse%3Arevenue_daily&from=2026-08-01&to=2026-08-25" }));
vi.mock("next/navigation", () => ({
  useSearchParams: () => new URLSearchParams(nav.search),
  useRouter: () => ({ push: vi.fn(), replace: vi.fn() }),
  usePathname: () => "/completeness",
}));

describe("CompletenessPage", () => {
  beforeEach(() => {
    server.use(http.get("/api/v1/completeness/datasets", () => HttpResponse.json({ datasets: [aDatasetOption()] })));
  });

  it("leads with the plain sentence and who is on it; the engineer's details stay closed behind one click", async () => {
    server.use(http.get("/api/v1/completeness", () => HttpResponse.json(aCompleteness())));
    const user = userEvent.setup();
    renderWithQuery(<CompletenessPage />);
    const problem = await screen.findByTestId("plain-2026-08-10");
    expect(within(problem).getByTestId("plain-sentence")).toHaveTextContent(
      "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra).",
    );
    expect(within(problem).getByTestId("on-it")).toHaveTextContent("No one is on it yet: open an incident.");
    expect(within(problem).getByRole("link", { name: "open an incident" })).toHaveAttribute(
      "href",
      "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
    );
    expect(screen.getByTestId("verdict-summary")).toHaveTextContent("Do not quote this number as complete yet — 1 problem:");
    expect(screen.getByTestId("verdict")).not.toHaveTextContent(/reasons across|divergent|±5/);

    const details = screen.getByTestId("engineer-details");
    expect(details).not.toHaveAttribute("open");
    await user.click(screen.getByText("Engineer's details"));
    expect(details).toHaveAttribute("open");
    expect(within(details).getByTestId("unit-headline")).toHaveTextContent("built on duplicated upstream rows: stg_orders");
  });

  it("names the open incident on the problem, linked, and what it is doing", async () => {
    const base = aCompleteness();
    const u = base.byUnit[0]!;
    const onIt = [{ id: "inc-3", title: "stg_orders 2026-08-10 failed", status: "repairing", href: "/incidents/inc-3", doing: "is repairing it" }];
    server.use(http.get("/api/v1/completeness", () => HttpResponse.json({ ...base, byUnit: [{ ...u, plain: { ...u.plain, onIt, openIncidentHref: null } }] })));
    renderWithQuery(<CompletenessPage />);
    const who = await screen.findByTestId("on-it");
    expect(who).toHaveTextContent("Incident “stg_orders 2026-08-10 failed” is repairing it.");
    expect(within(who).getByRole("link", { name: "stg_orders 2026-08-10 failed" })).toHaveAttribute("href", "/incidents/inc-3");
  });

  it("keeps the month field filled after a check of a whole month", async () => {
    server.use(http.get("/api/v1/completeness", () => HttpResponse.json(aCompleteness())));
    renderWithQuery(<CompletenessPage />);
    await screen.findByTestId("verdict");
    expect(screen.getByLabelText("Month")).toHaveValue("2026-08");
    expect(screen.getByLabelText("From key")).toHaveValue("2026-08-01");
  });
});
