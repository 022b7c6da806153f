import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { aHistory, aRepairRow } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { HistoryPage } from "./HistoryPage";

const nav = vi.hoisted(() => ({ search: "", replace: (url: string) => void url }));
vi.mock("next/navigation", () => ({
  useSearchParams: () => new URLSearchParams(nav.search),
  useRouter: () => ({ replace: (url: string) => nav.replace(url), push: vi.fn() }),
  usePathname: () => "/history",
}));

const options = (label: string) =>
  within(screen.getByLabelText(label))
    .getAllByRole("option")
    .map((o) => o.textContent);

describe("HistoryPage filters", () => {
  beforeEach(() => {
    nav.search = "pipeline=meters&from=2026-09-01";
    nav.replace = vi.fn();
  });

  it("keep every choice in their dropdowns when nothing matches, and say so", async () => {
    const asked: string[] = [];
    server.use(
      http.get("/api/v1/history", ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(aHistory());
      }),
    );
    renderWithQuery(<HistoryPage />);
    expect(await screen.findByTestId("history-empty")).toHaveTextContent("No repair runs match these filters.");
    expect(asked).toEqual(["?pipeline=meters&from=2026-09-01"]);
    expect(screen.getByLabelText("Pipeline")).toHaveValue("meters");
    expect(options("Pipeline")).toEqual(["all", "meters", "orders"]);
    expect(options("Task")).toEqual(["all", "job:meters:land_readings", "job:orders:stg_orders"]);
    expect(options("Owner")).toEqual(["all", "meters-team", "orders-team"]);
  });

  it("put a changed filter in the URL, keeping the others", async () => {
    server.use(http.get("/api/v1/history", () => HttpResponse.json(aHistory())));
    const user = userEvent.setup();
    renderWithQuery(<HistoryPage />);
    await screen.findByTestId("history-empty");
    await user.selectOptions(screen.getByLabelText("Owner"), "orders-team");
    expect(nav.replace).toHaveBeenCalledWith("/history?pipeline=meters&from=2026-09-01&owner=orders-team");
  });
});

describe("HistoryPage repairs", () => {
  beforeEach(() => {
    nav.search = "";
  });

  it("shows a demo repair's time to repair in minutes from the incident's opening, and counts in words", async () => {
    const totals = {
      ...aHistory().totals,
      repairs: 1,
      incidents: 1,
      medianResolutionMs: 9 * 60_000,
      p90ResolutionMs: 9 * 60_000,
      unitsRecomputed: 19,
      pairsPlanned: 19,
      fullRerunUnits: 600,
    };
    server.use(http.get("/api/v1/history", () => HttpResponse.json(aHistory({ repairs: [aRepairRow()], totals }))));
    renderWithQuery(<HistoryPage />);
    const row = await screen.findByTestId("repair-rep-1");
    expect(within(row).getByTestId("ttr")).toHaveTextContent("5 min");
    expect(within(row).getByTestId("ttd")).toHaveTextContent("106 d 7 h");
    expect(screen.getByTestId("stat-repairs")).toHaveTextContent("1repair run (1 incident)");
    // On a phone the table reflows into one card per repair, each cell under its column's name.
    expect([...row.querySelectorAll("td")].map((td) => td.getAttribute("data-label"))).toEqual([
      "Run",
      "Incident",
      "Original run",
      "Tasks",
      "Failure",
      "Detect",
      "Repair",
      "Validate",
      "Resolution",
      "Units",
    ]);
  });
});
