import { screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { anOpenFailure, anOverview } from "@/test/components/builders";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { OverviewPage } from "./OverviewPage";

describe("OverviewPage", () => {
  it("shows each count with its noun in the right number, the failures and what they left behind", async () => {
    server.use(http.get("/api/v1/overview", () => HttpResponse.json(anOverview())));
    renderWithQuery(<OverviewPage />);
    const duplicated = await screen.findByTestId("stat-duplicateUnits");
    expect(duplicated).toHaveTextContent("1unit duplicated");
    expect(screen.getByTestId("stat-missingUnits")).toHaveTextContent("23units never published");
    const partial = screen.getByTestId("failure-stg_orders-2026-08-17");
    expect(within(partial).getByTestId("failure-tries")).toHaveTextContent("2");
    expect(within(partial).getByTestId("partial-write")).toHaveTextContent("partial write: 20 rows still readable");
    expect(within(screen.getByTestId("failure-stg_orders-2026-08-23")).getByText("nothing written")).toBeInTheDocument();
    expect(within(partial).getByRole("link", { name: "Plan a repair →" })).toHaveAttribute(
      "href",
      "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-17",
    );
  });

  it("gives every cell of a reflowing table its column's name, for the one-card-per-row phone layout", async () => {
    server.use(http.get("/api/v1/overview", () => HttpResponse.json(anOverview({ failures: [anOpenFailure()] }))));
    renderWithQuery(<OverviewPage />);
    const row = await screen.findByTestId("failure-stg_orders-2026-08-17");
    const labels = [...row.querySelectorAll("td")].map((td) => td.getAttribute("data-label"));
    expect(labels).toEqual(["Task", "Unit", "Tries", "Left behind", "Error", null]);
  });

  it("says the overview could not be loaded, with the server's message", async () => {
    server.use(http.get("/api/v1/overview", () => HttpResponse.json({ message: "DATABASE_URL: the database is unreachable" }, { status: 503 })));
    renderWithQuery(<OverviewPage />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load the overview: DATABASE_URL: the database is unreachable");
  });

  it("says when the counts cover only the datasets computed so far", async () => {
    server.use(
      http.get("/api/v1/overview", () => HttpResponse.json(anOverview({ states: { computing: { done: 4, total: 15 }, refreshing: false, unfolded: null } }))),
    );
    renderWithQuery(<OverviewPage />);
    expect(await screen.findByRole("status")).toHaveTextContent("Computing unit states: 4 of 15 datasets so far.");
  });

  it("says when accepted events are not folded into the ledger yet (deferred folding)", async () => {
    server.use(
      http.get("/api/v1/overview", () =>
        HttpResponse.json(anOverview({ states: { computing: null, refreshing: false, unfolded: { events: 1234, oldestSeconds: 3 } } })),
      ),
    );
    renderWithQuery(<OverviewPage />);
    expect(await screen.findByRole("status")).toHaveTextContent("1,234 accepted events not in the ledger yet (the oldest waited 3 s).");
  });
});
